import type { pythonParser } from '../../python/parser.js';
import type { Task } from '../../tasks/task.js';

export interface AuditRow {
  id: string;
  variant: Task['variant'];
  /**
   * `pass`: as advertised (and impossible for the solutions that exist); `problem`: something is
   * wrong with the row; `error`: a check could not run (sandbox trouble), which says nothing of the row.
   */
  verdict: 'pass' | 'problem' | 'error';
  /** What was checked and found, one line each; the first line of a problem says what is wrong. */
  findings: string[];
  /** Whether a solution (or gold patch) was run in Docker. */
  ran: boolean;
  /** How the variant says it was made (its mutation record's origin, `patch` when unstated); absent without a record. */
  origin?: MutationOrigin;
}

export type MutationOrigin = NonNullable<NonNullable<Task['mutation']>['origin']>;

export interface AuditOptions {
  /** Run the solutions in Docker (default true). */
  docker?: boolean;
  concurrency?: number;
  runId?: string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** Ends a variant's audit with its row. */
export type Finish = (task: Task, row: AuditRow) => void;

/** What a kind's audit gets: the Python parser, the options, where rows end, and a fresh row for a variant. */
export interface AuditContext {
  parser: Awaited<ReturnType<typeof pythonParser>>;
  options: AuditOptions;
  finish: Finish;
  rowOf(task: Task): AuditRow;
}
