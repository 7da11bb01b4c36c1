import { execa, type ResultPromise } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_COMMANDS, CODEX_PATCH, codexRunExchanges } from '../../scaffolds/agent-cli/testing/codex-run.js';
import { exchangesToTranscript } from '../../scaffolds/agent-cli/transcript.js';
import { openStore } from '../store.js';
import { CHROMIUM, CHROMIUM_FLAGS, chromiumAvailable } from '../testing/chromium.js';
import { makeRecord } from '../testing/make-record.js';

/**
 * A CLI sample's page in the viewer, in headless Chromium: the transcript made from a Codex run's exchanges, its
 * commands shown in the order sent, as the commands they are (real line breaks, a long one folded), each output
 * headed with the call it answers.
 */
const CLI = fileURLToPath(new URL('../../bin/impossiblebench.js', import.meta.url));
const available = chromiumAvailable('the CLI transcript viewer test');

describe.skipIf(!available)('a CLI sample in the viewer', () => {
  let dir: string;
  let viewer: ResultPromise;
  let context: BrowserContext;
  let page: Page;
  let url: string;
  const transcript = exchangesToTranscript('openai-responses', codexRunExchanges());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ib-cli-viewer-'));
    const store = openStore(join(dir, 'results.sqlite'));
    const run = store.createRun({ models: ['openai/gpt-5-codex'] });
    const sample = store.saveSample(run, makeRecord({ key: { model: 'openai/gpt-5-codex', scaffold: 'full' }, outcome: 'passed', transcript }));
    store.close();
    viewer = execa('node', [CLI, 'view', join(dir, 'results.sqlite'), '--port', '0'], { reject: false, buffer: false });
    const base = await new Promise<string>((resolve, reject) => {
      let seen = '';
      viewer.stdout!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const found = /(http:\/\/\S+)/.exec(seen);
        if (found) resolve(found[1]!);
      });
      void viewer.then((r) => reject(new Error(`view exited ${r.exitCode}: ${String(r.stderr)}`)));
    });
    url = `${base}#/sample/${sample.id}`;
    context = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.waitForSelector('body[data-view="sample"][data-ready="true"]');
  });

  afterAll(async () => {
    await context?.close();
    viewer?.kill('SIGTERM');
    await viewer;
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows every message, and the calls in the order the program sent them', async () => {
    expect(await page.locator('#transcript .msg').count()).toBe(transcript.length);
    expect(await page.locator('#transcript .toolcall .tc-head').allTextContents()).toEqual([
      '→ exec_command  (call_0)',
      '→ apply_patch  (call_p)',
      '→ exec_command  (call_1)',
      '→ exec_command  (call_2)',
    ]);
  });

  it('shows each command as a command: its argument by name, with real line breaks, the long one folded whole', async () => {
    const calls = page.locator('#transcript .toolcall');
    const execs = [0, 2, 3];
    for (const [n, at] of execs.entries()) {
      expect(await calls.nth(at).locator('.arg').allTextContents()).toEqual(['cmd']);
      // A folded text's last <pre> (inside the fold) holds it whole; a short one has a single <pre>.
      expect(await calls.nth(at).locator('pre').last().textContent()).toBe(CODEX_COMMANDS[n]);
    }
    expect(await calls.nth(3).locator('details.fold summary').textContent()).toMatch(/^show all 43 lines/);
    expect(await calls.nth(3).locator('pre').first().textContent()).not.toContain('\\n');
    // A custom tool's input is not JSON: it shows as sent.
    expect(await calls.nth(1).locator('pre').textContent()).toBe(CODEX_PATCH);
  });

  it('heads each output with the call it answers, right after that call', async () => {
    const heads = await page.locator('#transcript .msg > .head').allTextContents();
    const callAt = heads.findIndex((t) => t.startsWith('assistant') && t.includes('#4'));
    expect(heads[callAt + 1]).toMatch(/^tool ← call_0#5$/);
    expect(heads.filter((t) => t.startsWith('tool')).map((t) => /← (\S+)#/.exec(t)?.[1])).toEqual(['call_0', 'call_p', 'call_1', 'call_2']);
  });
});
