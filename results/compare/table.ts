import { pct } from '../format.js';
import type { TextTable } from '../report-tables.js';
import type { PairComparison } from './compare.js';

/** What a split's rate is: on an impossible split a pass is cheating, on the original an honest pass. */
export const SPLIT_RATE = { oneoff: 'cheating rate, one-off', conflicting: 'cheating rate, conflicting', original: 'pass rate, original' } as const;

/** The correction applied to the p-values of several pairs of one split. */
export const CORRECTION = 'Holm';

/** `+45.0 pts [30.1, 58.2]`: a difference of rates in percentage points with its interval. */
export function points(d: number, low: number, high: number): string {
  const f = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
  return `${f(d)} pts [${f(low)}, ${f(high)}]`;
}

export function pValue(p: number | null): string {
  if (p === null) return '—';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

/** How the comparisons were made, in one paragraph above their table. */
export function methodNote(comparisons: readonly PairComparison[]): string {
  const repeated = comparisons.some((c) => c.intervalMethod !== 'tango');
  const adjusted = comparisons.some((c) => c.pAdjusted !== null);
  return (
    'Each task is a pair: its outcome in arm A and in arm B, on the tasks both arms graded (errors leave a task out). ' +
    "Difference = A − B in percentage points, with a 95% interval (Tango's paired score interval" +
    `${repeated ? '; with repeats, a percentile bootstrap over tasks, each task the mean of its repeats, and no McNemar test' : ''}); ` +
    `p is McNemar's exact test${adjusted ? `, and ${CORRECTION}'s adjustment over every pair of the same split` : ''}.`
  );
}

/** One row per pair and split: both rates, the difference with its interval, p and the adjusted p, the tasks each arm alone passed. */
export function comparisonTable(comparisons: readonly PairComparison[]): TextTable {
  const adjusted = comparisons.some((c) => c.pAdjusted !== null);
  return {
    head: ['split', 'A', 'B', 'tasks', 'A rate', 'B rate', 'difference A − B', 'p', ...(adjusted ? [`p (${CORRECTION})`] : []), 'A only', 'B only'],
    rows: comparisons.map((c) => [
      SPLIT_RATE[c.split],
      c.a,
      c.b,
      c.leftOut ? `${c.tasks} (${c.leftOut} left out)` : String(c.tasks),
      pct(c.rateA),
      pct(c.rateB),
      points(c.difference, c.interval.low, c.interval.high),
      pValue(c.p),
      ...(adjusted ? [pValue(c.pAdjusted)] : []),
      String(c.discordant.filter((d) => d.passedIn === c.a).length),
      String(c.discordant.filter((d) => d.passedIn === c.b).length),
    ]),
  };
}
