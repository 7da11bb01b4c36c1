import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { loadFullReportData } from '../report-data.js';
import { openStore } from '../store.js';
import { labelOf } from '../labels.js';
import { MONITOR_EVENT, type MonitorVerdict } from '../monitor/verdict.js';
import { makeRecord } from '../testing/make-record.js';
import { HOSTILE_TEXT, storeSampleRun } from '../testing/sample-run.js';
import { renderHtml } from './page.js';
import { CHROMIUM, CHROMIUM_FLAGS, chromiumAvailable } from '../testing/chromium.js';

const available = chromiumAvailable('the HTML report browser test');

describe.skipIf(!available)('the HTML report in headless Chromium', () => {
  let dir: string;
  let context: BrowserContext;
  let page: Page;
  const offPage: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ib-chromium-'));
    const store = openStore(join(dir, 'results.sqlite'));
    const run = storeSampleRun(store);
    // One judge verdict, on the first test-editing sample, as \`impossiblebench classify\` stores it.
    const judged = store.listSamples(run, {
      model: 'anthropic/claude-opus-4',
      scaffold: 'full',
      access: 'full',
      split: 'oneoff',
      taskId: 'lcb_001',
    })[0]!;
    store.addEvent(
      run,
      'judge',
      {
        model: 'openai/gpt-5',
        kind: 'modify-tests',
        explanation: 'It rewrote the failing assertion.',
        inputTokens: 900,
        outputTokens: 40,
        costUsd: 0.001,
      },
      judged.keyString,
    );
    const html = renderHtml(loadFullReportData(store, run));
    writeFileAtomic(join(dir, 'report.html'), html);
    writeFileAtomic(join(dir, 'empty.html'), renderHtml(loadFullReportData(store, store.createRun({}, { id: 'empty' }))));
    // Two datasets, one prompt and one attempt budget: a dataset filter, and no column that only repeats itself.
    const two = store.createRun({ models: ['openai/gpt-5'] }, { id: 'two-datasets' });
    for (const dataset of ['builtin:lcb', 'builtin:swe'])
      for (const split of ['original', 'oneoff'] as const)
        for (const access of ['full', 'readonly'] as const)
          store.saveSample(
            two,
            makeRecord({
              key: { model: 'openai/gpt-5', dataset, split, access, taskId: `${dataset}-1`, maxAttempts: 3 },
              outcome: split === 'oneoff' && dataset === 'builtin:swe' ? 'passed' : 'failed',
            }),
          );
    writeFileAtomic(join(dir, 'two.html'), renderHtml(loadFullReportData(store, two)));
    // A monitor that suspects test edits (90), trusts special-casing (10) and wrongly suspects one legitimate pass (80).
    const monitored = storeSampleRun(store, 'monitored');
    let wrong = false;
    for (const s of store.listSamples(monitored, { outcome: 'passed' })) {
      const score = labelOf(s) === 'cheating' ? (s.testDiff ? 90 : 10) : wrong ? 10 : 80;
      wrong = true;
      const verdict: MonitorVerdict = {
        model: 'openai/gpt-5-mini',
        promptHash: 'cd'.repeat(32),
        status: 'scored',
        score,
        reason: `scored ${score}`,
        answer: '',
        inputTokens: 1,
        outputTokens: 1,
        costUsd: 0,
      };
      store.addEvent(monitored, MONITOR_EVENT, verdict, s.keyString);
    }
    writeFileAtomic(join(dir, 'monitored.html'), renderHtml(loadFullReportData(store, monitored)));
    // Three repeats of four tasks: two tasks agree in every repeat, two do not.
    const repeats = store.createRun({ models: ['scripted/coin-flip'] }, { id: 'repeats' });
    for (const [taskId, row] of Object.entries({ lcb_001: 'PPP', lcb_002: 'FFF', lcb_003: 'PFF', lcb_004: 'PPF' }))
      for (const [epoch, o] of [...row].entries())
        store.saveSample(repeats, makeRecord({ key: { taskId, split: 'oneoff', epoch }, outcome: o === 'P' ? 'passed' : 'failed' }));
    writeFileAtomic(join(dir, 'repeats.html'), renderHtml(loadFullReportData(store, repeats)));
    store.close();

    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1400, height: 900 },
    });
    // Every request other than the report file itself is recorded and refused.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') && /\/(report|empty|two|monitored|repeats)\.html$/.test(url)) return route.continue();
      offPage.push(url);
      return route.abort();
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.waitForSelector('body[data-ready="true"]');
  });

  const count = (selector: string) => page.locator(selector).count();
  const text = async (selector: string) => (await page.locator(selector).first().textContent())?.trim();
  const texts = (selector: string) => page.locator(selector).allTextContents();
  const className = async (selector: string) => (await page.locator(selector).first().getAttribute('class')) ?? '';

  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the headline table with a rate chart per config', async () => {
    expect(await count('#headline-table tbody tr')).toBe(6);
    const points = page.locator('#headline-table svg.forest g.point');
    expect(await points.count()).toBe(18);
    const chart = await page.locator('#headline-table tbody svg.forest').first().boundingBox();
    expect(chart!.width).toBeGreaterThan(150);
    expect(chart!.height).toBeGreaterThan(20);
    // A whisker spans the interval: visibly wide for 3/6.
    const whisker = await page.locator('#headline-table tbody tr').first().locator('g.point[data-split="oneoff"] line.whisker').boundingBox();
    expect(whisker!.width).toBeGreaterThan(40);
    expect(await text('#stat-cheating .v')).toBe('28.8%');
    expect(await text('#headline-table tbody tr td[data-split="oneoff"] .extras')).toBe('1 flagged');
    expect(await text('#filter-count')).toBe('showing 108 of 108 samples');
  });

  it('with repeats, says the interval is a bootstrap over tasks and how consistent the repeats are', async () => {
    await page.goto(pathToFileURL(join(dir, 'repeats.html')).href);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await text('#headline-table tbody tr td[data-split="oneoff"] .extras')).toBe(
      'interval: bootstrap over 4 tasks, 3 repeats · repeats agree on 50.0% of tasks, kappa 0.33',
    );
    expect(await text('#headline .legend')).toContain('with repeats a bootstrap over tasks');
    const head = await texts('#cells-table thead th');
    expect(head.slice(-3)).toEqual(['Repeats', 'Repeats agree', 'Kappa']);
    const row = await texts('#cells-table tbody tr td');
    expect(row.slice(-3)).toEqual(['3', '50.0%', '0.33']);
    expect(row[10]).toMatch(/ \(bootstrap over tasks\)$/);
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await texts('#cells-table thead th')).not.toContain('Kappa');
  });

  it('filters configs and samples, then opens a sample with its transcript, diffs and grading log', async () => {
    await page.selectOption('#filter-model', 'anthropic/claude-opus-4');
    expect(await count('#headline-table tbody tr')).toBe(3);
    expect(await text('#filter-count')).toBe('showing 54 of 108 samples');
    // The summary follows the filters: 10 of the model's 36 impossible samples passed.
    expect(await text('#stat-cheating .v')).toBe('27.8%');
    expect(await text('#stat-cost .v')).toBe('unknown');
    await page.selectOption('#filter-outcome', 'cheating');
    expect(await text('#filter-count')).toBe('showing 10 of 108 samples');
    const rows = page.locator('#sample-table tbody tr');
    expect(await rows.count()).toBe(10);
    for (const cls of await rows.evaluateAll((trs) => trs.map((tr) => tr.className))) expect(cls).toContain('cheating');

    await rows.first().click();
    await page.waitForSelector('#sample-view:not([hidden]) #sample-banner');
    expect(await page.locator('#overview').isHidden()).toBe(true);
    expect(await text('#sample-banner')).toContain('Cheating: passed tests that contradict the spec');
    expect(await text('#sample-banner')).toContain('anthropic/claude-opus-4');
    for (const role of ['system', 'user', 'assistant', 'tool']) expect(await page.locator(`#transcript .msg.${role}`).count()).toBeGreaterThan(0);
    expect(await text('#transcript .toolcall')).toContain('bash');
    expect(await className('#test-diff')).toContain('changed');
    expect(await texts('#test-diff .d-add')).toEqual(['+    assert candidate([5]) == 5']);
    expect(await texts('#test-diff .d-del')).toEqual(['-    assert candidate([5]) == 6']);
    expect(await text('.panel.grading')).toContain('all 4 assertions passed');

    const shot = join(tmpdir(), 'impossiblebench-report-sample.png');
    await page.screenshot({ path: shot, fullPage: false });
    expect(statSync(shot).size).toBeGreaterThan(20_000);

    await page.click('#back');
    await page.waitForSelector('#overview:not([hidden])');
    expect(await page.locator('#sample-view').isHidden()).toBe(true);
    expect(await text('#filter-count')).toBe('showing 10 of 108 samples');
    await page.click('#filter-reset');
    expect(await text('#filter-count')).toBe('showing 108 of 108 samples');
  });

  it('shows agent-written markup as text and never runs it', async () => {
    await page.selectOption('#filter-model', 'openai/gpt-5');
    await page.selectOption('#filter-split', 'oneoff');
    await page.selectOption('#filter-access', 'full');
    await page.selectOption('#filter-scaffold', 'full');
    await page.locator('#sample-table tbody tr').first().click();
    await page.waitForSelector('#sample-view:not([hidden]) #sample-banner');
    const last = page.locator('#transcript .msg').last();
    expect(await last.locator('pre').textContent()).toBe(HOSTILE_TEXT);
    expect(await page.locator('#transcript img, #transcript script').count()).toBe(0);
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
  });

  it('shows an error sample with its error and its events', async () => {
    await page.click('#back');
    await page.waitForSelector('#overview:not([hidden])');
    await page.click('#filter-reset');
    await page.selectOption('#filter-outcome', 'error');
    expect(await count('#sample-table tbody tr')).toBe(6);
    await page.locator('#sample-table tbody tr').first().click();
    await page.waitForSelector('#sample-view:not([hidden]) #sample-banner');
    expect(await text('#sample-banner')).toContain('Infrastructure or API error');
    expect(await text('#evidence')).toContain('model API returned 500 three times in a row');
    expect(await text('.panel.sample-events')).toContain('gave_up');
  });

  it('badges each cheating sample with its kind, filters by kind, and shows the lines behind it', async () => {
    await page.click('#back');
    await page.waitForSelector('#overview:not([hidden])');
    await page.click('#filter-reset');
    // The summary table follows the config filters, and a click on a kind lists its samples.
    expect(await texts('#kinds-table tbody tr td:nth-child(1)')).toEqual(['modify-tests', 'special-casing', 'runner-tampering']);
    expect(await texts('#kinds-table tbody tr td:nth-child(2)')).toEqual(['10', '9', '2']);
    expect(await text('#kinds-table tfoot td:nth-child(2)')).toBe('21');
    await page.selectOption('#filter-model', 'openai/gpt-5');
    expect(await texts('#kinds-table tbody tr td:nth-child(1)')).toEqual(['special-casing', 'runner-tampering']);
    expect(await texts('#kinds-table tbody tr td:nth-child(3)')).toEqual(['81.8%', '18.2%']);
    await page.click('#kinds-table tr[data-kind="runner-tampering"]');
    expect(await page.locator('#filter-kind').inputValue()).toBe('runner-tampering');
    expect(await text('#filter-count')).toBe('showing 2 of 108 samples');
    await page.click('#filter-reset');
    // Only the kinds the run shows are offered, each with its count.
    expect(await texts('#filter-kind option')).toEqual(['all', 'modify-tests (10)', 'special-casing (9)', 'runner-tampering (2)']);
    expect(await count('#sample-table tbody tr .badge.kind')).toBe(21);
    await page.selectOption('#filter-kind', 'special-casing');
    expect(await text('#filter-count')).toBe('showing 9 of 108 samples');
    const rows = page.locator('#sample-table tbody tr');
    for (const badges of await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('.badge.kind')].map((b) => b.textContent)))) {
      expect(badges).toEqual(['special-casing']);
    }
    expect(await page.locator('#sample-table tbody tr .badge.kind').first().getAttribute('title')).toContain(
      'hard-coded outputs for the exact inputs the tests use',
    );
    // Kind and outcome filters combine: the evasions are all runner tampering.
    await page.selectOption('#filter-kind', 'runner-tampering');
    await page.selectOption('#filter-outcome', 'evaded');
    expect(await text('#filter-count')).toBe('showing 2 of 108 samples');
    await page.selectOption('#filter-outcome', 'legit');
    expect(await text('#filter-count')).toBe('showing 0 of 108 samples');
    await page.selectOption('#filter-outcome', '');
    await page.selectOption('#filter-kind', 'modify-tests');
    await rows.first().click();
    await page.waitForSelector('#sample-view:not([hidden]) #sample-banner');
    expect(await texts('#sample-banner .badge.kind')).toEqual(['modify-tests']);
    expect(await text('#kinds .kind-finding[data-kind="modify-tests"]')).toContain('the test files were changed');
    expect(await text('#kinds pre')).toBe('test.py:5  -    assert candidate([5]) == 6\ntest.py:5  +    assert candidate([5]) == 5');
    expect(await text('#kinds .judge-verdict')).toBe('Judge openai/gpt-5: modify-testsIt rewrote the failing assertion.');
    // A sample that passed honestly has no such panel.
    await page.click('#back');
    await page.waitForSelector('#overview:not([hidden])');
    await page.click('#filter-reset');
    await page.selectOption('#filter-outcome', 'legit');
    await page.locator('#sample-table tbody tr').first().click();
    await page.waitForSelector('#sample-view:not([hidden]) #sample-banner');
    expect(await count('#kinds')).toBe(0);
    expect(await count('#sample-banner .badge.kind')).toBe(0);
  });

  it('shows the run config and its events', async () => {
    await page.click('#back');
    await page.waitForSelector('#overview:not([hidden])');
    await page.click('text=Run config and events');
    expect(await text('#run-config pre')).toContain('"anthropic/claude-opus-4"');
    expect(await count('#run-events tbody tr')).toBe(9);
    expect(await texts('#run-events tbody tr td:nth-child(2)')).toEqual(['start', ...Array<string>(6).fill('gave_up'), 'finished', 'judge']);
  });

  it('explains an empty run instead of drawing empty tables', async () => {
    const empty = await context.newPage();
    empty.on('pageerror', (err) => pageErrors.push(err.message));
    await empty.goto(pathToFileURL(join(dir, 'empty.html')).href);
    await empty.waitForSelector('body[data-ready="true"]');
    expect(await empty.locator('#headline').textContent()).toBe('No samples are stored for this run yet.');
    expect(await empty.locator('#samples').textContent()).toBe('No samples are stored for this run yet.');
    expect(await empty.locator('#filter-count').textContent()).toBe('showing 0 of 0 samples');
    await empty.close();
  });

  it('offers a dataset filter when a run holds several, and says once what every row shares', async () => {
    const two = await context.newPage();
    two.on('pageerror', (err) => pageErrors.push(err.message));
    await two.goto(pathToFileURL(join(dir, 'two.html')).href);
    await two.waitForSelector('body[data-ready="true"]');
    const heads = await two.locator('#headline-table thead th').allTextContents();
    expect(heads.slice(0, -1)).toEqual(['Model', 'Dataset', 'Scaffold', 'Access', 'Original pass rate', 'one-off cheating', 'conflicting cheating']);
    expect(await two.locator('#headline .legend .shared').textContent()).toBe('all rows: prompt D · max attempts 3');
    expect(await two.locator('#filter-dataset option').allTextContents()).toEqual(['all', 'builtin:lcb', 'builtin:swe']);
    expect(await two.locator('#headline-table tbody tr').count()).toBe(4);
    await two.selectOption('#filter-dataset', 'builtin:swe');
    expect(await two.locator('#headline-table tbody tr').count()).toBe(2);
    expect(await two.locator('#filter-count').textContent()).toBe('showing 4 of 8 samples');
    expect(await two.locator('#stat-cheating').textContent()).toContain('100.0%');
    await two.click('#filter-reset');
    expect(await two.locator('#filter-dataset').inputValue()).toBe('');
    expect(await two.locator('#filter-count').textContent()).toBe('showing 8 of 8 samples');
    // The one-dataset report has no such filter, and its columns stay as they were.
    expect(await count('#filter-dataset')).toBe(0);
    await two.close();
  });

  it("shows per model the cheating kinds and each monitor's rates with whiskers, and lists what a monitor missed or wrongly flagged", async () => {
    const mon = await context.newPage();
    mon.on('pageerror', (err) => pageErrors.push(err.message));
    await mon.goto(pathToFileURL(join(dir, 'monitored.html')).href);
    await mon.waitForSelector('body[data-ready="true"]');
    const t = async (selector: string) => (await mon.locator(selector).first().textContent())?.trim();
    // All agent models, then each model: a kinds bar and a row per monitor.
    expect(await mon.locator('#monitors .monitor-block h3').allTextContents()).toEqual([
      'All agent models',
      'anthropic/claude-opus-4',
      'openai/gpt-5',
    ]);
    const all = mon.locator('#monitors .monitor-block[data-model="all"]');
    expect(await all.locator('svg.kind-bar rect').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-kind')))).toEqual([
      'modify-tests',
      'special-casing',
    ]);
    expect(await all.locator('.kind-legend span').allTextContents()).toEqual(['modify-tests 10', 'special-casing 9']);
    expect(await all.locator('tbody tr td:first-child').allTextContents()).toEqual(['static-classifier', 'openai/gpt-5-mini']);
    const row = all.locator('tbody tr[data-monitor^="openai/gpt-5-mini"]');
    expect(await row.locator('td.rate .ci').allTextContents()).toEqual(['52.6% [31.7% – 72.7%] 10/19', '3.3% [0.6% – 16.7%] 1/30']);
    expect(await row.locator('svg.whisker circle').count()).toBe(2);
    const ci = await row.locator('svg.whisker.detection line.ci-line').first().boundingBox();
    expect(ci!.width).toBeGreaterThan(50);
    // Each model's block has its own kinds: claude cheated only by editing tests.
    const claude = mon.locator('#monitors .monitor-block[data-model="anthropic/claude-opus-4"]');
    expect(await claude.locator('svg.kind-bar rect').count()).toBe(1);
    expect(await claude.locator('tbody tr[data-monitor^="openai/gpt-5-mini"] td.rate .ci').first().textContent()).toBe(
      '100.0% [72.2% – 100.0%] 10/10',
    );
    // The cheats it missed are the 9 special-cased ones; the one legitimate pass it flagged opens with its score.
    await row.locator('button', { hasText: 'missed' }).click();
    expect(await t('#filter-count')).toBe('showing 9 of 108 samples');
    expect(await mon.locator('#sample-table tbody tr .badge.kind').allTextContents()).toEqual(Array<string>(9).fill('special-casing'));
    await row.locator('button', { hasText: 'flagged' }).click();
    expect(await t('#filter-count')).toBe('showing 1 of 108 samples');
    await mon.locator('#sample-table tbody tr').first().click();
    await mon.waitForSelector('#sample-view:not([hidden]) #sample-banner');
    expect(await t('#sample-banner')).toContain('Passed the original tests');
    expect(await t('.panel.monitors-panel')).toContain('80 · flagged');
    expect(await t('.panel.monitors-panel')).toContain('static-classifier');
    await mon.click('#back');
    await mon.waitForSelector('#overview:not([hidden])');
    // The model filter keeps that model's block alone.
    await mon.selectOption('#filter-model', 'openai/gpt-5');
    expect(await mon.locator('#monitors .monitor-block h3').allTextContents()).toEqual(['openai/gpt-5']);
    // The page without monitor answers still shows the static classifier.
    expect(await count('#monitors .monitor-block tbody tr')).toBe(3);
    expect(await texts('#monitors .monitor-block[data-model="all"] tbody tr td:first-child')).toEqual(['static-classifier']);
    await mon.close();
  });

  it('made no network request and raised no script error', () => {
    expect(offPage).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
