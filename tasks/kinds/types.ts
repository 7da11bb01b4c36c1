import type { Sandbox } from '../../docker/types.js';
import type { RowContext, RowResult } from '../rows.js';
import type { TestSpec } from '../task.js';

/** A grading contract: plain data, the same for two tasks graded alike. */
export interface ContractBase {
  readonly kind: string;
  /** The image the sandbox starts from. */
  readonly image: string;
}

/** The fields every kind's task has (`tasks/task.ts`). */
export interface TaskBase {
  kind: string;
  id: string;
  variant: string;
}

/**
 * What the task room knows of one kind of task (LiveCodeBench functions, SWE-bench repositories, or one a user adds):
 * how its rows are read, how it is graded, what its sandbox needs. The mutation room and the scaffolds room keep their
 * own parts of a kind beside this one (`mutations/kinds/`, `scaffolds/kinds/`), under the same name; code elsewhere
 * asks the kind instead of comparing names.
 */
export interface TaskKindDefinition<T extends TaskBase = TaskBase, C extends ContractBase = ContractBase> {
  /** The value of `task.kind`. */
  readonly name: string;
  /** How a row of this kind is known, for messages: `a SWE-bench row (instance_id)`. */
  readonly rowFormat: string;
  /** The row field that names a task, for problems with a row. */
  readonly rowIdField: string;
  /** Whether a row is in this kind's format, by its identifying fields. */
  recognizes(row: object): boolean;
  /** Validates one row and maps it into a task. */
  rowToTask(row: unknown, ctx: RowContext): RowResult;
  /** The task with what a config says of it (a repository's test spec), where the config says anything. */
  configure?(task: T, config: { testSpecs?: Record<string, TestSpec> | undefined }): T;
  /** How the task is graded, as data (made once per task by `gradingContract`). */
  contract(task: T): C;
  /** The contract as a person or a diff reads it: what the grader runs and how it reads the result. */
  contractData(contract: C): Record<string, unknown>;
  /** The sandbox's CPUs and memory when the run names none, and addresses its tests expect to drop packets. */
  defaultLimits(task: T): { cpus: number; memoryBytes: number; tarpits?: readonly string[] | undefined };
  /** The graded test text of this variant: what tells two candidates apart. */
  gradedTest(task: T): string;
  /** The original task this variant was made from. */
  asOriginal(task: T): T;
  /** Whether each task gets a reference run (the gold patch on the original tests) before its samples. */
  readonly referenceRun: boolean;
  /**
   * How the task's tests are run, where a kind's tasks differ in it: the group that shares it (a repository), where
   * the command comes from, and whether it was given (else a default is assumed, which is worth saying once a group).
   */
  testSpec?(task: T): { group: string; origin: string; given: boolean };
  /** A task's fields worth showing as an example of its dataset, one line each (indented by two spaces). */
  describe(task: T): string[];
  /** A bare graded run of the task's reference solution, in a sandbox of its image: set up now, then run when asked. */
  prepareGradedRun(sandbox: Sandbox, task: T, timeoutMs: number): Promise<() => Promise<unknown>>;
}
