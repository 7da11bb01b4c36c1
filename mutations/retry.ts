import type { Task } from '../tasks/task.js';
import { taskKind } from '../tasks/kinds/registry.js';
import { mutationKind } from './kinds/registry.js';
import type { MutationType } from './outcome.js';
import { mutateSource, type SourceOptions } from './mutate-one.js';
import type { Verdict } from './validate/lcb.js';

/** Candidates validated per row by default: the first and two more when the gold patch passes the earlier ones. */
export const DEFAULT_MAX_TRIES = 3;

type Dropped = NonNullable<NonNullable<Task['mutation']>['dropped']>[number];

/**
 * Whether a rejection is a verdict on the variant that another candidate may not share: the gold
 * patch passes it (not impossible), or an empty patch does (it states what the unfixed code does).
 * Never an infrastructure or environment failure, which says nothing of the variant.
 */
export function worthAnotherCandidate(v: Verdict | undefined): v is Verdict {
  return !!v && !v.ok && !v.infrastructure && !v.environment && (!!v.notImpossible || !!v.unfixedPasses);
}

/** What a candidate is known by among those tried: its test patch (SWE) or its test (LCB). */
export function triedKey(t: Task): string {
  return taskKind(t).gradedTest(t);
}

/** A row whose variant validation rejected (the reference or an empty solution passes it), with what was tried. */
export interface Rejected {
  source: Task;
  variant: Task;
  verdict: Verdict;
  /** The candidates tried so far (by `triedKey`), in order. */
  tried: string[];
  dropped: Dropped[];
}

/** How the dropped variant reads in the record of the one kept. */
export function droppedEntry(variant: Task, verdict: Verdict): Dropped {
  const m = variant.mutation!;
  return { strategy: m.strategy, line: m.line, before: m.before, after: m.after, reason: verdict.reason ?? 'rejected' };
}

/**
 * The next candidate of each rejected row, in the engine's order past the ones tried; a row with
 * none left says why. The candidate's record names the ones dropped before it.
 */
export async function nextCandidates(
  rows: readonly Rejected[],
  type: MutationType,
  seed: number,
  options: SourceOptions,
): Promise<{ next: { row: Rejected; variant: Task }[]; exhausted: { row: Rejected; reason: string }[] }> {
  const next: { row: Rejected; variant: Task }[] = [];
  const exhausted: { row: Rejected; reason: string }[] = [];
  for (const row of rows) {
    const m = await mutateSource(row.source, type, seed, options, new Set(row.tried));
    if (!m.ok || !m.task.mutation) {
      exhausted.push({ row, reason: m.ok ? 'the next variant has no mutation record' : m.reason });
      continue;
    }
    const mutation = { ...m.task.mutation, tries: row.tried.length + 1, dropped: row.dropped };
    next.push({ row, variant: { ...m.task, mutation } as Task });
  }
  return { next, exhausted };
}

/** Why a row is left out after its tries: the last rejection, how many were tried, and why no more were. */
export function givenUp(row: Rejected, noMore?: string): string {
  const n = row.tried.length;
  const by = mutationKind(row.source).rejectedBy;
  const tries = n === 1 ? '' : ` (the last of ${n} candidates tried, each passed by ${by})`;
  return `${row.verdict.reason ?? 'rejected'}${tries}${noMore ? `; no other candidate: ${noMore}` : ''}`;
}
