/**
 * Time and peak memory of the report and export commands, and the viewer's speed in headless Chromium, on a store of
 * a sweep's size.
 *
 *   npm run bench:report [-- --samples N --transcript-kb K --from STORE --run ID]
 *
 * Generates a store of N samples (default 10,000) whose transcripts hold about K KB each (default 100): the samples
 * of a real run, copied in turn: by default the demo's matrix run once with the scripted policies (Docker needed),
 * or a run of another store (`--from STORE --run ID`). Then it runs, each as its own process under /usr/bin/time:
 * `report --html` (and opens the page in Chromium), `report`, `export` to JSONL and to Parquet; and it starts `view`
 * and measures, in Chromium, the first page, a filtered index, a kind filter, one sample and transcript searches.
 */
import { execa } from 'execa';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { measured } from './measured.js';
import { indexBytes } from './report-store.js';
import { mb, SWEEP_HELP, SWEEP_OPTIONS, sweepStore } from './sweep-store.js';
import { openStore } from '../results/store.js';
import { CHROMIUM, CHROMIUM_FLAGS } from '../results/testing/chromium.js';

const { values } = parseArgs({ options: SWEEP_OPTIONS });
if (values.help) {
  console.log(['usage: npm run bench:report -- [options]', ...SWEEP_HELP].join('\n'));
  process.exit(0);
}

const CLI = fileURLToPath(new URL('../../bin/impossiblebench.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ib-bench-report-'));

/** Seconds from loading the viewer's page (a full load) until it is drawn. */
async function timeUntilReady(page: Page, url: string): Promise<number> {
  const started = performance.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  return (performance.now() - started) / 1000;
}

/** Seconds from following a link inside the open viewer (as a click on a filter or a row does) until it is drawn. */
async function timeInApp(page: Page, hash: string): Promise<number> {
  const started = performance.now();
  await page.evaluate((h) => {
    document.body.dataset.ready = 'false';
    location.hash = h;
  }, hash);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  return (performance.now() - started) / 1000;
}

async function main(): Promise<void> {
  console.log(`bench:report on ${availableParallelism()} cores: ${values.samples} samples, transcripts of about ${values['transcript-kb']} KB`);
  const { path: storePath, generated } = await sweepStore(values, dir);
  const sized = openStore(storePath, { readonly: true });
  const bytes = indexBytes(sized.database);
  sized.close();
  console.log(
    `  indexes: transcript text ${mb(bytes.transcripts)} (${((bytes.transcripts / bytes.total) * 100).toFixed(1)}% of the store), kinds ${mb(bytes.kinds)}`,
  );

  const html = join(dir, 'report.html');
  await measured('report --html', ['report', generated.runId, '--store', storePath, '--html', html, '--md', join(dir, 'report.md')]);
  console.log(`  page: ${mb(statSync(html).size)}`);
  await measured('report (Markdown)', ['report', generated.runId, '--store', storePath, '--md', join(dir, 'only.md')]);
  await measured('export JSONL', ['export', generated.runId, '--store', storePath, '--out', join(dir, 'samples.jsonl')]);
  await measured('export Parquet', ['export', generated.runId, '--store', storePath, '--out', join(dir, 'samples.parquet')]);

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const started = performance.now();
    await page.goto(`file://${html}`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
    console.log(
      `report page in Chromium: ready in ${((performance.now() - started) / 1000).toFixed(1)} s, ${errors.length} errors${errors.length ? `: ${errors.join('; ')}` : ''}`,
    );

    const view = execa('node', [CLI, 'view', storePath, '--port', '0'], { reject: false, buffer: false });
    const url = await new Promise<string>((resolve) => {
      let seen = '';
      view.stdout!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const found = /(http:\/\/\S+)/.exec(seen);
        if (found) resolve(found[1]!);
      });
    });
    try {
      const first = await timeUntilReady(page, `${url}#/samples`);
      const firstRuns = await timeUntilReady(page, `${url}#/runs`);
      await timeUntilReady(page, `${url}#/samples`);
      const filtered = await timeInApp(page, '#/samples?split=oneoff&label=cheating');
      const id = await page.locator('#index-table tbody tr').first().getAttribute('data-id');
      const sample = await timeInApp(page, `#/sample/${id}`);
      const search = await timeInApp(page, `#/samples?q=${encodeURIComponent(generated.needle)}`);
      const found = await page.locator('#index-table tbody tr').count();
      const code = await timeInApp(page, `#/samples?q=${encodeURIComponent('assert ')}`);
      const codeHits = await page.locator('#index-count').getAttribute('data-total');
      const kind = await timeInApp(page, '#/samples?kind=modify-tests&split=oneoff');
      const kindHits = await page.locator('#index-count').getAttribute('data-total');
      console.log(
        `view: first page ${first.toFixed(2)} s (the runs page with every run's rates ${firstRuns.toFixed(2)} s), filtered index ${filtered.toFixed(2)} s, ` +
          `kind filter ${kind.toFixed(2)} s (${kindHits} found), one sample ${sample.toFixed(2)} s, transcript search ${search.toFixed(2)} s (${found} found), ` +
          `a common code string ${code.toFixed(2)} s (${codeHits} found), ${errors.length} page errors`,
      );
    } finally {
      view.kill('SIGTERM');
      await view;
    }
  } finally {
    await browser.close();
  }
  if (values.keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

await main();
