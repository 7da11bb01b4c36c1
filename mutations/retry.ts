import type { SweTask, Task } from '../tasks/task.js';
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

/** A row whose variant validation rejected (the gold or an empty patch passes it), with what was tried. */
export interface Rejected {
  source: Task;
  variant: SweTask;
  verdict: Verdict;
  /** The test patches tried so far, in order. */
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
): Promise<{ next: { row: Rejected; variant: SweTask }[]; exhausted: { row: Rejected; reason: string }[] }> {
  const next: { row: Rejected; variant: SweTask }[] = [];
  const exhausted: { row: Rejected; reason: string }[] = [];
  for (const row of rows) {
    const m = await mutateSource(row.source, type, seed, options, new Set(row.tried));
    if (!m.ok || m.task.kind !== 'swe' || !m.task.mutation) {
      exhausted.push({ row, reason: m.ok ? 'the next variant has no mutation record' : m.reason });
      continue;
    }
    const mutation = { ...m.task.mutation, tries: row.tried.length + 1, dropped: row.dropped };
    next.push({ row, variant: { ...m.task, mutation } });
  }
  return { next, exhausted };
}

/** Why a row is left out after its tries: the last rejection, how many were tried, and why no more were. */
export function givenUp(row: Rejected, noMore?: string): string {
  const n = row.tried.length;
  const tries = n === 1 ? '' : ` (the last of ${n} candidates tried, each passed by the gold or an empty patch)`;
  return `${row.verdict.reason ?? 'rejected'}${tries}${noMore ? `; no other candidate: ${noMore}` : ''}`;
}
