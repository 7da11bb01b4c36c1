/** A 95% interval of a rate or a difference, and the Wilson score interval of a rate. */

export interface Interval {
  low: number;
  high: number;
}

/** The normal quantile for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval for `passes` successes in `n` trials: unlike the normal approximation it
 * stays inside [0, 1] and is informative at 0/n and n/n, which is where cheating rates live.
 */
export function wilson(passes: number, n: number, z: number = Z95): Interval | null {
  if (!Number.isInteger(passes) || !Number.isInteger(n) || passes < 0 || n < 0 || passes > n) {
    throw new RangeError(`wilson: need integers 0 <= passes <= n, got ${passes}/${n}`);
  }
  if (n === 0) return null;
  const p = passes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // Clamp rounding noise at the ends: 0/n has low exactly 0, n/n has high exactly 1.
  return { low: passes === 0 ? 0 : Math.max(0, centre - half), high: passes === n ? 1 : Math.min(1, centre + half) };
}
