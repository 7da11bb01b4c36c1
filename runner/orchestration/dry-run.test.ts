import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../results/store.js';
import { demoExperiment } from '../commands/demo.js';
import { dryRunText, formatUsd } from '../output/dry-run-text.js';
import { assertBuilt, cli } from '../testing/cli.js';
import { realWiring } from '../wiring/real-wiring.js';
import { dryRun } from './dry-run.js';
import type { ModelEstimate } from './estimate.js';
import { launchRun } from './launch.js';

/** The demo's matrix on its LiveCodeBench-style suite, every scripted policy billed as a real model (as bench:cost names one). */
const PRICED_AS = 'anthropic/claude-sonnet-4-5';
const DEMO = { ...demoExperiment(1, 4, 'lcb'), scriptedPriceAs: PRICED_AS } as Record<string, unknown>;
const quiet = () => {};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ib-dry-run-'));
});

/** The demo matrix, run for real into `store`: a new run each time. */
async function realRun(store: string) {
  return launchRun({
    flags: DEMO,
    flagNames: {},
    store,
    wire: (experiment, { store: open }) => realWiring(experiment, { validateVariants: true, store: open, say: quiet }),
    signal: new AbortController().signal,
    progress: { plain: true },
    say: quiet,
  });
}

/** The store's files, hashed: a dry run must leave every byte as it was. */
function storeFingerprint(path: string): string {
  const hash = createHash('sha256');
  for (const file of [path, `${path}-wal`]) if (existsSync(file)) hash.update(readFileSync(file));
  return hash.digest('hex');
}

const total = (estimates: ModelEstimate[], pick: (e: ModelEstimate) => number | null) => estimates.reduce((n, e) => n + pick(e)!, 0);

describe('run --dry-run', () => {
  it('runs nothing and creates no store, from the command line too', async () => {
    const store = join(dir, 'never.sqlite');
    const report = await dryRun({ flags: DEMO, flagNames: {}, store, say: quiet });
    expect(report.planned).toHaveLength(11 * 3 * 2 * 3);
    expect(report.todo).toHaveLength(report.planned.length);
    expect(report.images.missing).toEqual([]);
    // No history: each model's figures are the default of LiveCodeBench-style tasks, billed as the real model.
    for (const e of report.estimates) expect(e.source).toBe(`builtin:lcb: the default for lcb tasks, priced as ${PRICED_AS}`);
    expect(existsSync(store)).toBe(false);

    assertBuilt();
    const r = await cli(['run', '--model', 'scripted/honest', '--split', 'original', '--limit', '1', '--store', store, '--dry-run']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^dry run: nothing was run/);
    expect(r.stdout).toMatch(/samples: 1 planned, 1 to run/);
    expect(r.stdout).toMatch(/scripted\/honest\s+1\s+\$0\.0000-\$0\.0000/);
    expect(existsSync(store)).toBe(false);
  });

  it("prints an estimate from earlier samples that holds the real run's cost, writing nothing to the store", async () => {
    const store = join(dir, 'demo.sqlite');
    const first = await realRun(store);
    expect(first.summary.status).toBe('finished');

    const before = storeFingerprint(store);
    const report = await dryRun({ flags: DEMO, flagNames: {}, store, say: quiet });
    expect(storeFingerprint(store)).toBe(before);
    const text = dryRunText(report);
    const [low, high] = [total(report.estimates, (e) => e.costLow), total(report.estimates, (e) => e.costHigh)];
    expect(low).toBeGreaterThan(0);
    expect(text).toContain(`total: ${formatUsd(low)}-${formatUsd(high)}`);
    expect(report.estimates).toHaveLength(11);
    for (const e of report.estimates) {
      expect(e.samples).toBe(18);
      expect(e.source).toBe(`builtin:lcb: 18 earlier samples of this model, priced as ${PRICED_AS}`);
      expect(text).toContain(e.model);
    }

    const second = await realRun(store);
    expect(second.summary.status).toBe('finished');
    const db = openStore(store, { readonly: true });
    try {
      const samples = db.listSamples(second.summary.runId, { withTranscript: false });
      expect(samples).toHaveLength(report.todo.length);
      const cost = samples.reduce((n, s) => n + s.costUsd!, 0);
      expect(cost).toBeGreaterThanOrEqual(low);
      expect(cost).toBeLessThanOrEqual(high);

      // Resuming the finished run would run nothing.
      const resume = await dryRun({ flags: {}, flagNames: {}, store, runId: second.summary.runId, say: quiet });
      expect(resume).toMatchObject({ resumes: second.summary.runId, todo: [] });
      expect(resume.planned).toHaveLength(report.planned.length);
      expect(dryRunText(resume)).toContain(`resuming run ${second.summary.runId}: ${report.planned.length} it holds already are skipped`);
    } finally {
      db.close();
    }
  }, 900_000);
});
