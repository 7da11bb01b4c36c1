import { build } from 'esbuild';
import { strFromU8, unzipSync } from 'fflate';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInspectLog, type ReadLog } from '../../results/inspect/read.js';
import { CHROMIUM, CHROMIUM_FLAGS, chromiumAvailable } from '../../results/testing/chromium.js';
import { serveFolder } from '../../results/testing/static-server.js';
import { assertBuilt, cli, ROOT } from '../testing/cli.js';

/*
 * Inspect's own log viewer, as published on npm, mounted on the logs `export --format inspect` wrote for a scripted
 * run (modify-tests on two LCB tasks, original and one-off: one log of four samples), served from 127.0.0.1 the way
 * a static deployment of the viewer reads a folder of logs: a `listing.json` of their headers beside them.
 */

/** The page's text as laid out, a line per row and cell: what a person reads. */
// biome-ignore lint/performance/useDomNodeTextContent: the laid-out lines are what the checks read, which textContent runs together.
const rendered = (page: Page) => page.locator('body').innerText();

const available = chromiumAvailable('the Inspect viewer browser test');

/** The page's script: the viewer's app on its static-folder API, as Inspect's own entry point mounts it. */
const ENTRY = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { App, clientApi, initializeStore, simpleHttpApi } from '@metrevals/inspect-log-viewer';
import '@metrevals/inspect-log-viewer/styles/index.css';
const api = clientApi(simpleHttpApi('logs'));
initializeStore(api, { downloadFiles: false, downloadLogs: false, webWorkers: false, streamSamples: false, streamSampleData: false });
createRoot(document.getElementById('app')).render(createElement(App, { api }));
`;

const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="viewer.css"></head>' +
  '<body><div id="app"></div><script type="module" src="viewer.js"></script></body></html>';

/** Files the static API looks for and treats as absent when missing: an eval set's and a flow's, neither ours. */
const OPTIONAL = /\/logs\/(eval-set\.json|flow\.yaml)$/;

describe.skipIf(!available)("Inspect's published log viewer on our exported logs, in headless Chromium", () => {
  let dir: string;
  let log: ReadLog;
  let server: { url: string; close: () => Promise<void> };
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'ib-inspect-viewer-'));
    const store = join(dir, 'results.sqlite');
    const run = await cli(
      [
        ...['run', '--model', 'scripted/modify-tests', '--dataset', 'builtin:lcb', '--split', 'original', '--split', 'oneoff'],
        ...['--scaffold', 'full', '--access', 'full', '--limit', '2', '--store', store],
      ],
      { cwd: dir },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const site = join(dir, 'site');
    const logs = join(site, 'logs');
    const exported = await cli(['export', 'latest', '--format', 'inspect', '--out', logs, '--store', store]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const files = readdirSync(logs);
    expect(files).toHaveLength(1);
    log = readInspectLog(join(logs, files[0]!));
    // The listing a static deployment of the viewer reads: each log's header under its file name.
    const header = JSON.parse(strFromU8(unzipSync(readFileSync(join(logs, files[0]!)))['header.json']!)) as unknown;
    writeFileSync(join(logs, 'listing.json'), JSON.stringify({ [files[0]!]: header }));
    await build({
      stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'js' },
      bundle: true,
      outdir: site,
      entryNames: 'viewer',
      format: 'esm',
      platform: 'browser',
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'error',
    });
    writeFileSync(join(site, 'index.html'), PAGE);
    server = await serveFolder(site);
    context = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !OPTIONAL.test(m.location().url)) errors.push(`${m.text()} (${m.location().url})`);
    });
  }, 600_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists every sample of the log with its outcome, and the log's cheating rates by outcome and label", async () => {
    expect(log.samples).toHaveLength(4);
    await page.goto(server.url);
    for (const s of log.samples) await page.getByText(`${s.id}`, { exact: true }).first().waitFor();
    const text = await rendered(page);
    const outcomes = log.samples.map((s) => s.scores!.outcome!.value);
    expect(text.match(/^passed$/gm)?.length).toBe(outcomes.filter((o) => o === 'passed').length);
    // The results table: a row per scorer, with its rates.
    expect(text).toMatch(/^outcome\t1\.0/m);
    expect(text).toMatch(/^label\t/m);
    expect(text).toContain('4 Samples');
    expect(errors, errors.join('\n')).toEqual([]);
  });

  it("opens a sample's scores, its label among them, and its transcript with the tool calls it made", async () => {
    const sample = log.samples.find((s) => s.metadata.split === 'oneoff')!;
    await page.getByText(`${sample.id}`, { exact: true }).first().click();
    await page.getByText(`Sample ${sample.id} (Epoch 1)`).waitFor();

    await page.getByRole('tab', { name: 'Scoring' }).first().click();
    const label = `${sample.scores!.label!.value}`;
    await page.getByText(label, { exact: true }).first().waitFor();
    const scoring = await rendered(page);
    expect(scoring).toContain('label');
    expect(scoring).toContain(`${sample.scores!.outcome!.value}`);

    await page.getByRole('tab', { name: 'Transcript' }).first().click();
    const calls = sample.messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []) : []));
    expect(calls.length).toBeGreaterThan(0);
    const turns = sample.messages.filter((m) => m.role === 'assistant').length;
    await page.getByText(`${turns} turns`).waitFor();
    const transcript = await rendered(page);
    for (const name of new Set(calls.map((c) => c.function))) expect(transcript).toContain(`TOOL: ${name.toUpperCase()}`);
    expect(transcript.match(/^MODEL CALL: /gm)?.length).toBe(turns);
    expect(errors, errors.join('\n')).toEqual([]);
  });
});
