import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_PRICES } from '../../models/prices.js';
import { openStore, type StoredSample } from '../../results/store.js';
import { assertBuilt, cli } from '../testing/cli.js';

const MODELS = ['scripted/honest', 'scripted/modify-tests'];
/** 2 models × 3 tasks × 2 splits. */
const SAMPLES = 12;
let dir: string;
let prices: string;

beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-run-budget-'));
  // The scripted policies billed as gpt-5 is billed, on the token counts the local model server reports.
  prices = join(dir, 'prices.json');
  await writeFile(prices, JSON.stringify(Object.fromEntries(MODELS.map((m) => [m, BUILTIN_PRICES['openai/gpt-5']]))));
});

function runArgs(store: string, runId: string, budget?: number): string[] {
  return [
    'run',
    ...MODELS.flatMap((m) => ['--model', m]),
    '--dataset',
    'builtin:lcb',
    '--split',
    'original',
    '--split',
    'conflicting',
    '--scaffold',
    'minimal',
    '--max-attempts',
    '1',
    '--limit',
    '3',
    '--concurrency',
    '2',
    '--prices',
    prices,
    '--store',
    store,
    '--run-id',
    runId,
    '--plain',
    ...(budget !== undefined ? ['--max-run-cost', String(budget)] : []),
  ];
}

/** The run's samples, its status and its events of one kind, read back from the store. */
function stored(store: string, runId: string, eventKind: string) {
  const s = openStore(store, { readonly: true });
  try {
    const run = s.getRun(runId);
    const budget = (run.config as { maxRunCost?: number }).maxRunCost;
    return { samples: s.listSamples(runId, { withTranscript: false }), status: run.status, budget, events: s.listEvents(runId, eventKind) };
  } finally {
    s.close();
  }
}

const spend = (samples: StoredSample[]) => samples.reduce((sum, s) => sum + (s.costUsd ?? Number.NaN), 0);
const outcomes = (samples: StoredSample[]) => Object.fromEntries(samples.map((s) => [s.keyString, s.outcome]).sort());

describe('run --max-run-cost, on the real engine', () => {
  it('is documented in the help, with its exit status, and refuses a budget that is no positive number', async () => {
    const help = await cli(['run', '--help']);
    expect(help.stdout).toContain('--max-run-cost <usd>');
    expect(help.stdout).toMatch(/4 when it stopped at its\s+budget/);
    const bad = await cli(['run', '--model', 'scripted/honest', '--max-run-cost', '0']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/--max-run-cost.*expected a positive number, got "0"/);
  });

  it('stops starting samples at the budget, exits 4, and a resume with a larger budget completes the run', async () => {
    const store = join(dir, 'budget.sqlite');
    const full = await cli(runArgs(store, 'unbudgeted'));
    expect(full.exitCode, full.stderr).toBe(0);
    const whole = stored(store, 'unbudgeted', 'finished');
    expect(whole.samples).toHaveLength(SAMPLES);
    const fullCost = spend(whole.samples);
    expect(fullCost).toBeGreaterThan(0);

    const budget = fullCost / 2;
    const first = await cli(runArgs(store, 'budgeted', budget));
    expect(first.exitCode, first.stderr).toBe(4);
    const cut = stored(store, 'budgeted', 'budget_stop');
    expect(cut.status).toBe('budget_reached');
    expect(cut.budget).toBe(budget);
    const left = SAMPLES - cut.samples.length;
    expect(left).toBeGreaterThan(0);
    expect(first.stdout).toContain(`run budgeted budget_reached: ${cut.samples.length}/${SAMPLES} samples`);
    expect(first.stdout).toMatch(
      new RegExp(`budget: \\$${spend(cut.samples).toFixed(4)} spent of \\$${budget}; stopped before passing it with ${left} samples left`),
    );
    expect(first.stdout).toContain('--max-run-cost USD');
    // Once it stopped, nothing started; those in flight then finished, and they are all it spent beyond the budget.
    const stop = cut.events[0]!.time;
    expect(cut.samples.filter((s) => s.startedAt > stop)).toEqual([]);
    const inFlight = cut.samples.filter((s) => s.endedAt >= stop);
    expect(inFlight.length).toBeLessThanOrEqual(2);
    expect(spend(cut.samples)).toBeLessThanOrEqual(budget + spend(inFlight) + 1e-12);

    const resumed = await cli(runArgs(store, 'budgeted', fullCost * 10));
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const done = stored(store, 'budgeted', 'budget');
    expect(done.status).toBe('finished');
    // The larger budget is the run's now: a later resume without flags keeps it.
    expect(done.budget).toBe(fullCost * 10);
    // The resume counted what the first sitting spent.
    expect((done.events[1]!.data as { spentUsd: number }).spentUsd).toBeCloseTo(spend(cut.samples), 12);
    expect(new Set(done.samples.map((s) => s.keyString)).size).toBe(SAMPLES);
    expect(done.samples).toHaveLength(SAMPLES);
    expect(outcomes(done.samples)).toEqual(outcomes(whole.samples));
    expect(spend(done.samples)).toBeCloseTo(fullCost, 9);
  }, 900_000);
});
