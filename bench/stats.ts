/** The benchmarks' summaries of repeated timings. */

/** The middle value (the upper of the two middle ones for an even count); 0 for none. */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
