import type { SandboxBackend, SandboxOptions } from '../../docker/types.js';
import type { SandboxLimitSettings } from '../../tasks/env/sandbox-limits.js';
import type { SweGradeResult } from '../../tasks/env/swe-contract.js';
import type { MutationRecord, SweTask } from '../../tasks/task.js';
import type { TaskBase } from '../../tasks/kinds/types.js';
import type { AuditContext } from '../audit/types.js';
import type { MutationType } from '../outcome.js';
import type { MutateTaskExtras, TaskMutation } from '../task-mutation.js';
import type { Verdict } from '../validate/lcb.js';
import type { OriginalRuns } from '../validate/swe.js';

/** What a kind's validation may use: each kind takes what it needs. */
export interface KindValidationOptions {
  runId?: string;
  backend?: SandboxBackend;
  /** Variants (or sandboxes) side by side. */
  concurrency?: number;
  signal?: AbortSignal;
  onDone?(task: TaskBase, verdict: Verdict): void;
  /** The image a task's sandbox starts from, when not its own (a history image). */
  imageFor?: (task: SweTask, sandbox: SandboxOptions) => Promise<string>;
  /** The CPUs and memory a task's sandboxes get. */
  limits?: SandboxLimitSettings;
  /** The reference's runs on original tests, by task, shared between calls. */
  originals?: OriginalRuns;
  /** Where the reference's run on a task's original tests comes from, when not made here. */
  original?: (task: SweTask) => Promise<SweGradeResult>;
}

/**
 * What the mutation room knows of one kind of task (registered under the name of its `tasks/kinds/` definition):
 * how its impossible variants are made, validated, audited and written back as rows.
 */
export interface MutationKindParts<T extends TaskBase = TaskBase> {
  readonly name: string;
  /** The `type` variant of an original task, made from its original tests; `extras.skip` names candidates tried. */
  mutate(task: T, type: MutationType, seed: number, extras: MutateTaskExtras): Promise<TaskMutation>;
  /** Whether a failed mutation is worth a second try with the repository's test files at hand (whole-file edits). */
  readonly readsBaseFiles: boolean;
  /** Whether a variant can be validated (there is something to run it against). */
  canValidate(task: T): boolean;
  /** Each variant's verdict, in input order: the reference passes the original and fails the variant, an empty try fails it. */
  validate(variants: readonly T[], options: KindValidationOptions): Promise<Verdict[]>;
  /** Whether a one-off may state what the unfixed code does (a flipped outcome): only validation with an empty try tells. */
  unfixedMayPass(record: MutationRecord): boolean;
  /** What validation runs a candidate with, in words: `the gold or an empty patch`. */
  readonly rejectedBy: string;
  /** The task as a row of its dataset's format, with its mutation record. */
  row(task: T): object;
  /** Audits variants someone else made: structure first, then what can run in sandboxes. */
  audit(tasks: readonly T[], ctx: AuditContext): Promise<void>;
}
