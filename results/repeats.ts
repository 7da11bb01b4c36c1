import { clusterBootstrap, fleissKappa, repeatAgreement } from './compare/paired.js';
import type { Interval } from './interval.js';

/**
 * Repeats of a task (`run --epochs N`) are not independent evidence: a model that cheats on a task tends to cheat on
 * it again. So with repeats the task is the unit: each task's rate over its graded repeats, and the tasks' mean.
 */

/** One task's repeats: how many passed, of how many were graded (errors are no outcome of the agent's). */
export interface TaskRepeats {
  passes: number;
  graded: number;
}

/** How far repeats of each task agree: the share of tasks whose repeats all agree, and Fleiss' kappa. */
export interface Consistency {
  agree: number | null;
  /** Null where undefined (every repeat alike) or where tasks have different numbers of graded repeats. */
  kappa: number | null;
}

/**
 * The consistency of tasks' repeats. Only tasks with two graded repeats or more are counted: a task whose other repeats
 * errored has nothing to agree with, and counting it as agreeing would flatter the figure.
 */
export function consistencyOf(tasks: readonly TaskRepeats[]): Consistency {
  const counts = tasks.filter((t) => t.graded > 1).map((t) => [t.passes, t.graded - t.passes] as [number, number]);
  if (counts.length === 0) return { agree: null, kappa: null };
  const raters = counts[0]![0] + counts[0]![1];
  const same = raters >= 2 && counts.every(([p, f]) => p + f === raters);
  return { agree: repeatAgreement(counts), kappa: same ? fleissKappa(counts) : null };
}

/** Whether any task has more than one graded repeat: then the task, not the sample, is the unit. */
export function isRepeated(tasks: readonly TaskRepeats[]): boolean {
  return tasks.some((t) => t.graded > 1);
}

/** The fixed seed of every bootstrap in a report, so that a report of the same samples reads the same each time. */
export const BOOTSTRAP_SEED = 0;

/**
 * The rate with the task as the unit: the mean of the tasks' rates over their graded repeats, and a percentile
 * bootstrap interval over tasks. Null without a graded task.
 */
export function rateOverTasks(tasks: readonly TaskRepeats[]): { rate: number; interval: Interval } | null {
  // Sorted, so the interval depends on the tasks' rates alone, not on the order the store returned them in.
  const rates = tasks
    .filter((t) => t.graded > 0)
    .map((t) => t.passes / t.graded)
    .sort((x, y) => x - y);
  if (rates.length === 0) return null;
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return { rate: mean(rates), interval: clusterBootstrap(rates, mean, { seed: BOOTSTRAP_SEED })! };
}
