import type { ResultPromise } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type StoredSample } from '../../results/store.js';
import { CHROMIUM, CHROMIUM_FLAGS, chromiumAvailable } from '../../results/testing/chromium.js';
import { startView } from '../../results/testing/start-view.js';
import { runAccessArms } from '../testing/access-arms.js';
import { assertBuilt, cli } from '../testing/cli.js';

/*
 * The comparison of a scripted run's two access modes in the pages a person reads: the HTML report's Comparisons card
 * and the viewer's Compare page. modify-tests cheats with full access and cannot with read-only tests, so the tasks that
 * differ are known from the store: those whose one-off passed in one access mode only.
 */

const available = chromiumAvailable('the comparison pages browser test');

describe.skipIf(!available)('comparisons in the report and the viewer, in headless Chromium', () => {
  let dir: string;
  let samples: StoredSample[];
  /** The tasks whose outcome differs between the access modes, with their sample ids. */
  let differing: Map<string, number[]>;
  let viewer: { url: string; proc: ResultPromise };
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'ib-compare-pages-'));
    const store = await runAccessArms(dir, 'modify-tests');
    const report = await cli(['report', 'latest', '--html', join(dir, 'report.html'), '--store', store]);
    expect(report.exitCode, report.stderr).toBe(0);
    const s = openStore(store);
    try {
      samples = s.listSamples(s.listRuns()[0]!.id, { withTranscript: false });
    } finally {
      s.close();
    }
    const byTask = new Map<string, StoredSample[]>();
    for (const x of samples) byTask.set(x.key.taskId, [...(byTask.get(x.key.taskId) ?? []), x]);
    differing = new Map(
      [...byTask]
        .filter(([, list]) => new Set(list.map((x) => x.outcome === 'passed')).size > 1)
        .map(([task, list]) => [task, list.map((x) => x.id).sort((a, b) => a - b)]),
    );
    viewer = await startView(store);
    context = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  }, 600_000);

  afterAll(async () => {
    await context?.close();
    viewer?.proc.kill('SIGTERM');
    await viewer?.proc;
    await rm(dir, { recursive: true, force: true });
  });

  /** The task ids a page lists as differing, each with the sample ids it links to. */
  async function listed(selector: string): Promise<Map<string, number[]>> {
    const items = await page.locator(selector).evaluateAll((lis) =>
      lis.map((li) => ({
        task: /builtin:lcb (\S+?): passed/.exec(li.textContent ?? '')?.[1] ?? '',
        ids: [...li.querySelectorAll('a.sample-link')].map((a) => Number(/(\d+)$/.exec(a.getAttribute('href') ?? '')![1])),
      })),
    );
    return new Map(items.map((i) => [i.task, i.ids.sort((a, b) => a - b)]));
  }

  it('the report plots one row for the one pair on the one split, and links each differing task to its samples', async () => {
    expect(differing.size).toBeGreaterThan(2);
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    await page.waitForSelector('body[data-ready="true"]');
    // Only access varies: one card, one pair (full, readonly), one split (one-off).
    expect(await page.locator('section.comparison').evaluateAll((cards) => cards.map((c) => c.id))).toEqual(['compare-access']);
    const rows = page.locator('#compare-access svg.compare-forest g.pair');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-split')).toBe('oneoff');
    expect(await page.locator('#compare-access .compare-table tbody tr').count()).toBe(1);
    expect(await listed('#compare-access li.discordant-task')).toEqual(differing);

    const first = [...differing.values()][0]![0]!;
    await page.click(`#compare-access a.sample-link[href="#sample-${first}"]`);
    await page.waitForSelector('#sample-view:not([hidden]) #sample-banner');
    const sample = samples.find((x) => x.id === first)!;
    expect(await page.locator('#sample-banner').textContent()).toContain(sample.key.taskId);
    expect(errors).toEqual([]);
  });

  it("the viewer's Compare page, reached from the run summary, lists the pair and opens a differing task's sample", async () => {
    await page.goto(`${viewer.url}#/runs`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('.run-summary a.compare');
    await page.waitForSelector('body[data-view="compare"][data-ready="true"]');
    expect(await page.locator('#compare-by option').allTextContents()).toEqual(['access']);
    const cells = await page.locator('#compare .compare-table tbody tr td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['cheating rate, one-off', 'full', 'readonly']);
    expect(await listed('#compare li.discordant-task')).toEqual(differing);

    const [task, ids] = [...differing][0]!;
    await page.click(`#compare a.sample-link[href="#/sample/${ids[0]}"]`);
    await page.waitForSelector('body[data-view="sample"][data-ready="true"]');
    expect(new URL(page.url()).hash).toBe(`#/sample/${ids[0]}`);
    expect(await page.locator('#sample-banner').textContent()).toContain(task);
    expect(errors).toEqual([]);
  });

  it('answers a setting it cannot compare by with a one-line error', async () => {
    const res = await page.request.get(`${viewer.url}api/runs/${samples[0]!.runId}/compare?by=colour`);
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(
      'by: "colour" is not a setting to compare by; use one of model, scaffold, access, prompt, maxAttempts',
    );
  });
});
