import { describe, expect, it } from 'vitest';
import { CostMeans, expectedSampleCost, RunBudget } from './budget.js';
import { schedule } from './scheduler.js';

interface Item {
  id: number;
  model: string;
  cost: number;
}

function items(costs: number[], model = 'm'): Item[] {
  return costs.map((cost, id) => ({ id, model, cost }));
}

/**
 * Schedules the items under the budget as the run does: a sample's cost is spent when it ends. Each unit waits for a
 * turn of the event loop, so several are in flight at once. Returns what started, and when each started, the spend and
 * the costs of those in flight.
 */
async function runUnder(budget: RunBudget, list: Item[], concurrency: number) {
  const started: { id: number; spent: number; inFlight: number[] }[] = [];
  const inFlight = new Map<number, number>();
  const summary = await schedule(
    list,
    async (item) => {
      started.push({ id: item.id, spent: budget.spentUsd, inFlight: [...inFlight.values()] });
      inFlight.set(item.id, item.cost);
      await new Promise((r) => setImmediate(r));
      budget.spend({ model: item.model, outcome: 'passed', costUsd: item.cost, final: true });
      budget.release(item);
      inFlight.delete(item.id);
      return 'done';
    },
    { concurrency, admit: (item) => budget.admit(item, item.model) },
  );
  return { summary, started };
}

describe('the expected cost of a sample in flight', () => {
  it('is the mean of the same model, else of all models, else the per-sample limit, else 0', () => {
    const means = new CostMeans();
    expect(expectedSampleCost('a', means, undefined)).toBe(0);
    expect(expectedSampleCost('a', means, 0.5)).toBe(0.5);
    means.add('b', 1);
    means.add('b', 3);
    expect(expectedSampleCost('a', means, 0.5)).toBe(2);
    means.add('a', 0.25);
    expect(expectedSampleCost('a', means, 0.5)).toBe(0.25);
    expect(expectedSampleCost('b', means, 0.5)).toBe(2);
  });
});

describe('the run budget in the scheduler', () => {
  it('lets the first wave start, then starts nothing that would pass the budget, and never cuts one in flight', async () => {
    const budget = new RunBudget({ limitUsd: 1 });
    const list = items(Array.from({ length: 20 }, () => 0.1));
    const { summary, started } = await runUnder(budget, list, 3);
    expect(summary.refused).toBe(true);
    // The first three start at an expected 0 each; after that each start leaves spend + in flight + it within $1.
    expect(started.slice(0, 3).map((s) => s.id)).toEqual([0, 1, 2]);
    for (const s of started.slice(3)) expect(s.spent + (s.inFlight.length + 1) * 0.1).toBeLessThanOrEqual(1 + 1e-9);
    expect(summary.notStarted).toBe(20 - started.length);
    expect(summary.calls).toBe(started.length);
    // Every started sample ended and was paid for: nothing was cut.
    expect(budget.spentUsd).toBeCloseTo(started.length * 0.1);
    expect(budget.spentUsd).toBeLessThanOrEqual(1 + 3 * 0.1);
    expect(budget.stoppedBy).toBe('budget');
  });

  it('starts the samples in order and none after the first refused, though a cheaper one would fit', async () => {
    const budget = new RunBudget({ limitUsd: 1, maxCostUsd: 0.4 });
    const list = items([0.4, 0.4, 0.4, 0, 0]);
    const { summary, started } = await runUnder(budget, list, 1);
    // One at a time: $0.4, then $0.8, then $0.8 + 0.4 expected would pass $1.
    expect(started.map((s) => s.id)).toEqual([0, 1]);
    expect(summary).toEqual({ calls: 2, notStarted: 3, refused: true });
  });

  it('holds back the first wave by the per-sample limit when one is set', async () => {
    const budget = new RunBudget({ limitUsd: 1, maxCostUsd: 0.3 });
    const { started } = await runUnder(budget, items([0.3, 0.3, 0.3, 0.3]), 4);
    // Three expected at $0.3 fit in $1; a fourth would pass it. Then the spend is $0.9 and nothing more fits.
    expect(started.map((s) => s.id)).toEqual([0, 1, 2]);
    expect(budget.spentUsd).toBeCloseTo(0.9);
  });

  it('counts what earlier sittings spent', async () => {
    const prior = [{ model: 'm', outcome: 'passed' as const, costUsd: 0.9, final: true }];
    const budget = new RunBudget({ limitUsd: 1, prior });
    const { summary, started } = await runUnder(budget, items([0.2, 0.2]), 2);
    expect(budget.spentUsd).toBeCloseTo(0.9);
    expect(started).toEqual([]);
    expect(summary).toEqual({ calls: 0, notStarted: 2, refused: true });
  });

  it('runs everything when the budget holds the whole run', async () => {
    const budget = new RunBudget({ limitUsd: 10 });
    const { summary } = await runUnder(budget, items([0.5, 0.5, 0.5, 0.5]), 2);
    expect(summary).toEqual({ calls: 4, notStarted: 0, refused: false });
    expect(budget.stoppedBy).toBeUndefined();
  });

  it('stops starting once a model answer has no known cost, but not for an infrastructure error', () => {
    const budget = new RunBudget({ limitUsd: 10 });
    budget.spend({ model: 'm', outcome: 'error', costUsd: null, final: false });
    expect(budget.admit({}, 'm')).toBe(true);
    budget.spend({ model: 'm', outcome: 'failed', costUsd: null, final: true });
    expect(budget.admit({}, 'm')).toBe(false);
    expect(budget.stoppedBy).toBe('unknown_cost');
  });

  it('takes another estimator', () => {
    const budget = new RunBudget({ limitUsd: 1, estimate: () => 0.6 });
    expect(budget.admit({}, 'm')).toBe(true);
    expect(budget.admit({}, 'm')).toBe(false);
  });
});
