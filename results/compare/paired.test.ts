import { describe, expect, it } from 'vitest';
import { Rng } from '../../mutations/rng.js';
import { referencePython, referenceStatsAvailable } from '../testing/reference-stats.js';
import {
  bootstrapDraws,
  clusterBootstrap,
  fleissKappa,
  holm,
  mcnemarExact,
  pairedDifference,
  type PairedTable,
  pairedTable,
  quantile,
  repeatAgreement,
} from './paired.js';

/**
 * The paired statistics against an independent implementation: statsmodels (Debian's python3-statsmodels) for
 * McNemar's exact test, Holm's adjustment and Fleiss' kappa, numpy for the bootstrap's statistic and percentiles over
 * the same resamples. Tables include the edge cases: no discordant task, all discordant one way, one task.
 */
const python = referencePython;
const withReference = referenceStatsAvailable();

const TABLES: PairedTable[] = [
  { both: 36, onlyA: 12, onlyB: 2, neither: 0 },
  { both: 10, onlyA: 0, onlyB: 0, neither: 10 },
  { both: 0, onlyA: 20, onlyB: 0, neither: 0 },
  { both: 3, onlyA: 5, onlyB: 6, neither: 7 },
  { both: 0, onlyA: 1, onlyB: 0, neither: 0 },
  { both: 0, onlyA: 40, onlyB: 35, neither: 25 },
  { both: 100, onlyA: 700, onlyB: 640, neither: 60 },
];

describe('paired statistics', () => {
  it.runIf(withReference)("McNemar's exact p-value is statsmodels'", () => {
    const theirs = python(
      `import json, sys
from statsmodels.stats.contingency_tables import mcnemar
tables = json.load(sys.stdin)
print(json.dumps([mcnemar([[t['both'], t['onlyA']], [t['onlyB'], t['neither']]], exact=True).pvalue for t in tables]))`,
      TABLES,
    ) as number[];
    const ours = TABLES.map((t) => mcnemarExact(t));
    for (const [i, p] of ours.entries()) expect(p, JSON.stringify(TABLES[i])).toBeCloseTo(theirs[i]!, 12);
    expect(ours[1]).toBe(1); // no discordant task
  });

  it.runIf(withReference)("Holm's adjustment is statsmodels'", () => {
    const p = [0.01, 0.04, 0.03, 0.2, 0.0001, 0.04];
    const theirs = python(
      `import json, sys
from statsmodels.stats.multitest import multipletests
print(json.dumps(list(multipletests(json.load(sys.stdin), method='holm')[1])))`,
      p,
    ) as number[];
    for (const [i, q] of holm(p).entries()) expect(q).toBeCloseTo(theirs[i]!, 12);
  });

  it.runIf(withReference)("Fleiss' kappa of repeats is statsmodels'", () => {
    const sets: [number, number][][] = [
      [
        [3, 0],
        [0, 3],
        [2, 1],
        [1, 2],
        [3, 0],
      ],
      [
        [2, 0],
        [1, 1],
        [0, 2],
        [1, 1],
      ],
      [
        [5, 0],
        [0, 5],
      ],
    ];
    const theirs = python(
      `import json, sys
from statsmodels.stats.inter_rater import fleiss_kappa
print(json.dumps([fleiss_kappa(s) for s in json.load(sys.stdin)]))`,
      sets,
    ) as number[];
    for (const [i, s] of sets.entries()) expect(fleissKappa(s)).toBeCloseTo(theirs[i]!, 12);
    expect(
      fleissKappa([
        [2, 0],
        [2, 0],
      ]),
    ).toBeNull(); // every repeat alike: chance agreement is total
    expect(repeatAgreement(sets[0]!)).toBeCloseTo(3 / 5);
    expect(() =>
      fleissKappa([
        [2, 0],
        [1, 0],
      ]),
    ).toThrow(/same number/);
  });

  it.runIf(withReference)("the cluster bootstrap's interval is numpy's percentiles of the same statistic over the same resamples", () => {
    // Tasks with three repeats each: the statistic is the paired difference of the arms' mean rates over tasks.
    const rng = new Rng(7);
    const tasks = Array.from({ length: 23 }, () => ({ a: rng.int(4) / 3, b: rng.int(4) / 3 }));
    const stat = (drawn: readonly { a: number; b: number }[]) => drawn.reduce((s, t) => s + t.a - t.b, 0) / drawn.length;
    const ours = clusterBootstrap(tasks, stat, { resamples: 500, seed: 3 })!;
    const theirs = python(
      `import json, sys
import numpy as np
d = json.load(sys.stdin)
diff = np.array([t['a'] - t['b'] for t in d['tasks']])
values = [diff[np.array(draw)].mean() for draw in d['draws']]
print(json.dumps(list(np.percentile(values, [2.5, 97.5]))))`,
      { tasks, draws: bootstrapDraws(tasks.length, 500, 3) },
    ) as number[];
    expect(ours.low).toBeCloseTo(theirs[0]!, 12);
    expect(ours.high).toBeCloseTo(theirs[1]!, 12);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });

  it("Tango's paired interval holds its difference, stays in [−1, 1], and covers the truth about 95% of the time", () => {
    for (const t of TABLES) {
      const r = pairedDifference(t)!;
      expect(r.difference).toBeCloseTo((t.onlyA - t.onlyB) / (t.both + t.onlyA + t.onlyB + t.neither), 12);
      expect(r.interval.low).toBeLessThanOrEqual(r.difference);
      expect(r.interval.high).toBeGreaterThanOrEqual(r.difference);
      expect(r.interval.low).toBeGreaterThanOrEqual(-1);
      expect(r.interval.high).toBeLessThanOrEqual(1);
    }
    expect(pairedDifference({ both: 0, onlyA: 0, onlyB: 0, neither: 0 })).toBeNull();
    // All 20 tasks cheat in A alone: the difference is 1 and the interval excludes 0.
    expect(pairedDifference(TABLES[2]!)!.interval.low).toBeGreaterThan(0.5);
    // No task differs: the difference is 0, and 12 tasks cannot say it is exactly 0 (a zero-width interval would).
    const alike = pairedDifference({ both: 6, onlyA: 0, onlyB: 0, neither: 6 })!;
    expect(alike.interval.low).toBeCloseTo(-3.8415 / 15.8415, 3);
    expect(alike.interval.high).toBeCloseTo(3.8415 / 15.8415, 3);
    // Simulated: 40 tasks, cell probabilities fixed, 2,000 tables; the interval should cover the true difference
    // at close to its 95% (score intervals run close to it).
    const rng = new Rng(11);
    const cells = [0.3, 0.25, 0.1, 0.35];
    const truth = cells[1]! - cells[2]!;
    let covered = 0;
    for (let i = 0; i < 2000; i++) {
      const pairs = Array.from({ length: 40 }, (): [boolean, boolean] => {
        const u = rng.next();
        if (u < cells[0]!) return [true, true];
        if (u < cells[0]! + cells[1]!) return [true, false];
        if (u < cells[0]! + cells[1]! + cells[2]!) return [false, true];
        return [false, false];
      });
      const r = pairedDifference(pairedTable(pairs))!;
      if (r.interval.low <= truth && truth <= r.interval.high) covered++;
    }
    expect(covered / 2000).toBeGreaterThan(0.93);
    expect(covered / 2000).toBeLessThan(0.985);
  });
});
