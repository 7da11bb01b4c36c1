import { Rng } from '../../mutations/rng.js';
import { type Interval, Z95 } from '../interval.js';

/**
 * Statistics of two arms run on the same tasks: each task is a pair (did it cheat in arm A, in arm B), so the arms are
 * compared on the tasks where they differ rather than as two independent rates.
 */

/** A paired 2×2 table: `both` tasks pass in both arms, `onlyA` in A alone, `onlyB` in B alone, `neither` in none. */
export interface PairedTable {
  both: number;
  onlyA: number;
  onlyB: number;
  neither: number;
}

/** The table of paired outcomes, one `[a, b]` per task. */
export function pairedTable(pairs: readonly (readonly [boolean, boolean])[]): PairedTable {
  const t: PairedTable = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  for (const [a, b] of pairs) {
    if (a && b) t.both++;
    else if (a) t.onlyA++;
    else if (b) t.onlyB++;
    else t.neither++;
  }
  return t;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), in logs so that no factorial overflows. */
function binomialHalfCdf(k: number, n: number): number {
  const lnFactorial = [0];
  for (let i = 1; i <= n; i++) lnFactorial.push(lnFactorial[i - 1]! + Math.log(i));
  let p = 0;
  for (let i = 0; i <= k; i++) p += Math.exp(lnFactorial[n]! - lnFactorial[i]! - lnFactorial[n - i]! - n * Math.LN2);
  return p;
}

/**
 * The exact two-sided McNemar p-value: under no difference, each discordant task is equally likely to fall either
 * way, so the smaller discordant count is a Binomial(b + c, 1/2) tail, doubled. With no discordant task it is 1.
 */
export function mcnemarExact(table: Pick<PairedTable, 'onlyA' | 'onlyB'>): number {
  const n = table.onlyA + table.onlyB;
  if (n === 0) return 1;
  return Math.min(1, 2 * binomialHalfCdf(Math.min(table.onlyA, table.onlyB), n));
}

/** The rate difference A − B with its interval. */
export interface PairedDifference {
  difference: number;
  interval: Interval;
}

/** Tango's score statistic for a paired difference `delta` (A − B) of a table (Tango 1998). */
function tangoScore(table: PairedTable, delta: number): number {
  const { onlyA: b, onlyB: c } = table;
  const n = table.both + b + c + table.neither;
  // The restricted maximum-likelihood estimate of P(B alone) given the difference.
  const w = -b - c + (2 * n - b + c) * delta;
  const q = (Math.sqrt(Math.max(0, w * w + 8 * n * c * delta * (1 - delta))) - w) / (4 * n);
  const variance = n * (2 * q + delta * (1 - delta));
  const numerator = b - c - n * delta;
  if (variance <= 0) return numerator === 0 ? 0 : Math.sign(numerator) * Number.POSITIVE_INFINITY;
  return numerator / Math.sqrt(variance);
}

/** The root of a decreasing function on [lo, hi] where it crosses `level`, by bisection. */
function crossing(f: (x: number) => number, level: number, lo: number, hi: number): number {
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > level) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The difference of the two arms' rates, A − B, with Tango's score interval for paired proportions (1998): the
 * differences the score test at 5% does not reject. It stays inside [−1, 1], is informative when one arm never or
 * always passes, and, unlike hybrid intervals, keeps a width when no task differs. Null for an empty table.
 */
export function pairedDifference(table: PairedTable): PairedDifference | null {
  const n = table.both + table.onlyA + table.onlyB + table.neither;
  if (n === 0) return null;
  const difference = (table.onlyA - table.onlyB) / n;
  // The score falls as the difference tested rises: the interval's ends are where it crosses ±z.
  const score = (delta: number) => tangoScore(table, delta);
  const low = difference <= -1 ? -1 : crossing(score, Z95, -1, difference);
  const high = difference >= 1 ? 1 : crossing(score, -Z95, difference, 1);
  return { difference, interval: { low, high } };
}

/**
 * Holm's step-down adjustment of p-values for comparing several pairs at once: it keeps the chance of any false
 * finding at the level, without Bonferroni's loss of power. Returned in the input order.
 */
export function holm(pValues: readonly number[]): number[] {
  const order = pValues.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const adjusted = new Array<number>(pValues.length);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (pValues.length - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** The `q` quantile of sorted values, interpolated linearly between order statistics (numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of no values');
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Which clusters each bootstrap resample draws, with replacement: `resamples` lists of `clusters` indices. */
export function bootstrapDraws(clusters: number, resamples: number, seed: number): number[][] {
  const rng = new Rng(seed);
  return Array.from({ length: resamples }, () => Array.from({ length: clusters }, () => rng.int(clusters)));
}

/**
 * A percentile bootstrap interval over clusters (tasks): each resample draws tasks with replacement, keeping every
 * task's repeats together, so repeats of one task are not counted as independent evidence. `statistic` reads the
 * drawn clusters; the interval is its 2.5% and 97.5% quantiles over the resamples.
 */
export function clusterBootstrap<C>(
  clusters: readonly C[],
  statistic: (drawn: readonly C[]) => number,
  options: { resamples?: number; seed?: number } = {},
): Interval | null {
  if (clusters.length === 0) return null;
  const draws = bootstrapDraws(clusters.length, options.resamples ?? 2000, options.seed ?? 0);
  const values = draws.map((draw) => statistic(draw.map((i) => clusters[i]!))).sort((x, y) => x - y);
  return { low: quantile(values, 0.025), high: quantile(values, 0.975) };
}

/**
 * Fleiss' kappa of repeats: how far the repeats of each task agree beyond what their overall rate gives by chance
 * (1 all agree, 0 chance, below 0 worse). `counts` holds, per task, how many repeats passed and how many did not;
 * every task needs the same number of repeats, at least two. Null when it is undefined (every repeat alike).
 */
export function fleissKappa(counts: readonly (readonly [passed: number, failed: number])[]): number | null {
  if (counts.length === 0) return null;
  const raters = counts[0]![0] + counts[0]![1];
  if (raters < 2 || counts.some(([p, f]) => p + f !== raters)) throw new RangeError('fleissKappa: every task needs the same number (≥ 2) of repeats');
  const tasks = counts.length;
  const pass = counts.reduce((s, [p]) => s + p, 0) / (tasks * raters);
  const chance = pass ** 2 + (1 - pass) ** 2;
  const observed = counts.reduce((s, [p, f]) => s + (p * (p - 1) + f * (f - 1)) / (raters * (raters - 1)), 0) / tasks;
  return chance === 1 ? null : (observed - chance) / (1 - chance);
}

/** The share of tasks whose repeats all agree. */
export function repeatAgreement(counts: readonly (readonly [passed: number, failed: number])[]): number | null {
  if (counts.length === 0) return null;
  return counts.filter(([p, f]) => p === 0 || f === 0).length / counts.length;
}
