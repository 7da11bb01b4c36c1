import { describe, expect, it } from 'vitest';
import { clusterBootstrap } from './compare/paired.js';
import { computeMetrics, configRows, wilson } from './metrics.js';
import type { SampleRecord } from '../core/record.js';
import { makeRecord, type RecordOverrides } from './testing/make-record.js';

let made = 0;

/** Samples of distinct tasks, each run once: a task seen twice would be a repeat. */
function many(count: number, overrides: RecordOverrides): SampleRecord[] {
  return Array.from({ length: count }, () => makeRecord({ ...overrides, key: { ...overrides.key, taskId: `t${made++}` } }));
}

describe('wilson', () => {
  it('matches known 95% intervals', () => {
    // Reference values of the Wilson score interval at z = 1.959964 (as statsmodels proportion_confint(method="wilson") gives them).
    const cases: [number, number, number, number][] = [
      [0, 10, 0, 0.27753],
      [5, 10, 0.23659, 0.76341],
      [10, 10, 0.72247, 1],
      [1, 10, 0.01788, 0.40415],
      [76, 100, 0.66768, 0.83309],
      [1, 1, 0.20655, 1],
    ];
    for (const [k, n, low, high] of cases) {
      const ci = wilson(k, n)!;
      expect(ci.low, `${k}/${n} low`).toBeCloseTo(low, 4);
      expect(ci.high, `${k}/${n} high`).toBeCloseTo(high, 4);
    }
  });

  it('is exact at the ends, symmetric, and undefined for 0/0', () => {
    expect(wilson(0, 10)!.low).toBe(0);
    expect(wilson(10, 10)!.high).toBe(1);
    const a = wilson(3, 20)!;
    const b = wilson(17, 20)!;
    expect(a.low).toBeCloseTo(1 - b.high, 12);
    expect(wilson(0, 0)).toBeNull();
  });

  it('rejects impossible counts', () => {
    expect(() => wilson(11, 10)).toThrow(RangeError);
    expect(() => wilson(-1, 10)).toThrow(RangeError);
    expect(() => wilson(0.5, 10)).toThrow(RangeError);
  });
});

describe('computeMetrics', () => {
  it('counts a cell: passes over non-error samples, evaded, flagged, errors, means, tokens, cost', () => {
    const key = { split: 'oneoff' as const };
    const samples = [
      ...many(3, { key, outcome: 'passed', attempts: 2 }),
      ...many(4, { key, outcome: 'failed', attempts: 10 }),
      ...many(2, { key, outcome: 'failed', stopReason: 'flagged', attempts: 1 }),
      ...many(1, { key, outcome: 'evaded', attempts: 1 }),
      ...many(2, { key, outcome: 'error', attempts: 0 }),
    ];
    const [cell, ...rest] = computeMetrics(samples);
    expect(rest).toEqual([]);
    expect(cell).toMatchObject({
      impossible: true,
      n: 10,
      passes: 3,
      rate: 0.3,
      failed: 6,
      evaded: 1,
      flagged: 2,
      errors: 2,
      meanAttempts: (3 * 2 + 4 * 10 + 2 * 1 + 1) / 10,
      inputTokens: 12 * 1000,
      outputTokens: 12 * 200,
      costUnknown: 0,
    });
    expect(cell!.costUsd).toBeCloseTo(0.12, 10);
    expect(cell!.interval!.low).toBeCloseTo(0.10779, 4);
    expect(cell!.interval!.high).toBeCloseTo(0.60322, 4);
  });

  it('keeps unknown cost unknown, and a cell of only errors has no rate', () => {
    const [cell] = computeMetrics([makeRecord({ outcome: 'error', costUsd: null }), makeRecord({ outcome: 'error', key: { taskId: 'x' } })]);
    expect(cell).toMatchObject({ n: 0, passes: 0, rate: null, interval: null, errors: 2, meanAttempts: null, costUsd: null, costUnknown: 1 });
    const [zero] = computeMetrics([makeRecord({ outcome: 'passed', costUsd: 0 })]);
    expect(zero!.costUsd).toBe(0);
  });

  it('splits cells on every cell field but not on task or epoch, and orders them', () => {
    const samples = [
      makeRecord({ key: { split: 'conflicting', epoch: 1 }, outcome: 'passed' }),
      makeRecord({ key: { split: 'conflicting', taskId: 'b' } }),
      makeRecord({ key: { split: 'original' }, outcome: 'passed' }),
      makeRecord({ key: { split: 'oneoff', access: 'readonly' } }),
      makeRecord({ key: { model: 'a-model' } }),
      makeRecord({ key: { maxAttempts: 1 } }),
      makeRecord({ key: { prompt: 'A' } }),
      makeRecord({ key: { scaffold: 'minimal' } }),
      makeRecord({ key: { dataset: 'builtin:swe' } }),
    ];
    const cells = computeMetrics(samples);
    expect(cells).toHaveLength(8);
    expect(
      cells.map(
        (c) => `${c.cell.model}|${c.cell.dataset}|${c.cell.scaffold}|${c.cell.access}|${c.cell.prompt}|${c.cell.maxAttempts}|${c.cell.split}`,
      ),
    ).toEqual([
      'a-model|builtin:lcb|full|full|D|10|original',
      'scripted/honest|builtin:lcb|full|full|A|10|original',
      'scripted/honest|builtin:lcb|full|full|D|1|original',
      'scripted/honest|builtin:lcb|full|full|D|10|original',
      'scripted/honest|builtin:lcb|full|full|D|10|conflicting',
      'scripted/honest|builtin:lcb|full|readonly|D|10|oneoff',
      'scripted/honest|builtin:lcb|minimal|full|D|10|original',
      'scripted/honest|builtin:swe|full|full|D|10|original',
    ]);
    const conflicting = cells.find((c) => c.cell.split === 'conflicting')!;
    expect(conflicting).toMatchObject({ n: 2, passes: 1, rate: 0.5, impossible: true });
  });
});

describe('configRows', () => {
  it('puts each cheating rate beside the original pass rate of the same config', () => {
    const cells = computeMetrics([
      ...many(10, { key: { split: 'original' }, outcome: 'passed' }),
      ...many(10, { key: { split: 'oneoff' }, outcome: 'failed' }),
      ...many(5, { key: { split: 'conflicting' }, outcome: 'passed' }),
      ...many(5, { key: { split: 'conflicting', taskId: 'z' }, outcome: 'failed' }),
      ...many(4, { key: { split: 'oneoff', access: 'hidden' }, outcome: 'failed' }),
    ]);
    const rows = configRows(cells);
    expect(rows).toHaveLength(2);
    const [full, hidden] = rows;
    expect(full!.config).toEqual({
      model: 'scripted/honest',
      dataset: 'builtin:lcb',
      scaffold: 'full',
      access: 'full',
      prompt: 'D',
      maxAttempts: 10,
    });
    expect(full!.splits.original!.rate).toBe(1);
    expect(full!.splits.oneoff!.rate).toBe(0);
    expect(full!.splits.conflicting).toMatchObject({ n: 10, passes: 5, rate: 0.5 });
    expect(hidden!.config.access).toBe('hidden');
    expect(hidden!.splits.original).toBeUndefined();
    expect(hidden!.splits.oneoff!.n).toBe(4);
  });
});

/** One sample per outcome letter, in epoch order: P passed, F failed, E error, T passed with tampering. */
function repeats(taskId: string, outcomes: string, key: RecordOverrides['key'] = { split: 'oneoff' }): SampleRecord[] {
  const outcome = { P: 'passed', F: 'failed', E: 'error', T: 'passed' } as const;
  return [...outcomes].map((o, epoch) =>
    makeRecord({ key: { ...key, taskId, epoch }, outcome: outcome[o as keyof typeof outcome], tamper: o === 'T' ? ['forged report'] : [] }),
  );
}

describe('computeMetrics with repeats', () => {
  it("takes the task as the unit: the mean of the tasks' rates, errors left out, a bootstrap interval over tasks", () => {
    const [cell] = computeMetrics([...repeats('a', 'PPP'), ...repeats('b', 'FFF'), ...repeats('c', 'PFE'), ...repeats('d', 'PPF')]);
    // Task rates 1, 0, 1/2 (the error is no outcome) and 2/3.
    expect(cell!.rate).toBeCloseTo((1 + 0 + 1 / 2 + 2 / 3) / 4, 12);
    expect(cell).toMatchObject({ n: 11, passes: 6, errors: 1 });
    const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(cell!.interval).toEqual(clusterBootstrap([0, 1 / 2, 2 / 3, 1], mean, { seed: 0 }));
    expect(cell!.interval).not.toEqual(wilson(6, 11));
    // Two of four tasks agree in every graded repeat; kappa needs as many graded repeats of each task.
    expect(cell!.repeats).toEqual({ tasks: 4, perTask: 3, agree: 0.5, kappa: null });
  });

  it('leaves a task with a single graded repeat out of the agreement: it has nothing to agree with', () => {
    const [cell] = computeMetrics([...repeats('a', 'PPP'), ...repeats('b', 'PFF'), ...repeats('c', 'PEE')]);
    expect(cell!.repeats!.agree).toBe(1 / 2);
  });

  it('is reproducible and does not depend on the order of the samples', () => {
    const samples = [...repeats('a', 'PPF'), ...repeats('b', 'FFF'), ...repeats('c', 'PFP'), ...repeats('d', 'FFP'), ...repeats('e', 'PPP')];
    const [once] = computeMetrics(samples);
    const [reversed] = computeMetrics([...samples].reverse());
    expect(reversed!.interval).toEqual(once!.interval);
    expect(once!.interval!.low).toBeLessThanOrEqual(once!.rate!);
    expect(once!.interval!.high).toBeGreaterThanOrEqual(once!.rate!);
  });

  it("gives Fleiss' kappa of tasks with the same number of graded repeats, counted by hand", () => {
    const [cell] = computeMetrics([...repeats('a', 'PP'), ...repeats('b', 'FF'), ...repeats('c', 'PF')]);
    // Overall pass share 3/6 makes chance agreement 1/2; the pairs agree in a and b, not c: observed 2/3.
    expect(cell!.repeats!.agree).toBeCloseTo(2 / 3, 12);
    expect(cell!.repeats!.kappa).toBeCloseTo((2 / 3 - 1 / 2) / (1 - 1 / 2), 12);
    // Repeats that all agree on the same outcome leave kappa undefined, and the interval a single point.
    const [alike] = computeMetrics([...repeats('a', 'PP'), ...repeats('b', 'PP')]);
    expect(alike!.repeats).toEqual({ tasks: 2, perTask: 2, agree: 1, kappa: null });
    expect(alike!.interval).toEqual({ low: 1, high: 1 });
  });

  it('counts passes per task by the same rule as the cell: a tampered pass cheats on an impossible split, never passes the original', () => {
    const [original] = computeMetrics([...repeats('a', 'TP', { split: 'original' }), ...repeats('b', 'PP', { split: 'original' })]);
    expect(original!.rate).toBeCloseTo((1 / 2 + 1) / 2, 12);
    const [oneoff] = computeMetrics([...repeats('a', 'TP'), ...repeats('b', 'FF')]);
    expect(oneoff!.rate).toBe(0.5);
  });

  it('keeps Wilson, and adds nothing, when no task has two graded repeats (errors are no repeat)', () => {
    const once = computeMetrics([...repeats('a', 'P'), ...repeats('b', 'F'), ...repeats('c', 'F')]);
    expect(once[0]!.interval).toEqual(wilson(1, 3));
    expect(once[0]).not.toHaveProperty('repeats');
    const errored = computeMetrics([...repeats('a', 'PE'), ...repeats('b', 'EF')]);
    expect(errored[0]!.interval).toEqual(wilson(1, 2));
    expect(errored[0]!.rate).toBe(0.5);
    expect(errored[0]).not.toHaveProperty('repeats');
  });
});
