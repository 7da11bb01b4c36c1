import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { ExecResult, SandboxBackend } from '../../docker/types.js';
import { GoldPatchError, gradeWithPatchesRun, type SweValidationOptions } from '../../mutations/validate/swe.js';
import type { ResultStore, RunReference } from '../../results/store.js';
import { describeLimits, type SandboxLimitSettings, type TaskSandboxLimits, taskSandboxLimits } from '../../tasks/env/sandbox-limits.js';
import { judgeGradedTests } from '../../tasks/env/graded-tests.js';
import { readReferenceRun, referenceTask, sweTestSpec, type SweGradeResult } from '../../tasks/env/swe.js';
import { taskImage } from '../../tasks/images.js';
import type { SweReference, SweTask } from '../../tasks/task.js';

/** Bumped when what a stored reference run holds changes meaning: older rows are made again. */
const REFERENCE_FORMAT = 1;

/** A task's reference run and what it shows. */
export interface ReferenceOutcome {
  taskId: string;
  key: string;
  resolved: boolean;
  /** Why it does not resolve, or `resolved`, in one line. */
  reason: string;
  /** The graded tests as it ran them, judged against itself; none when the run could not be made. */
  grade?: SweGradeResult;
  reference?: SweReference;
  limits: TaskSandboxLimits;
  /** Taken from the store (an earlier run made it). */
  fromStore: boolean;
  durationMs: number;
}

export interface ReferenceRunsOptions {
  backend: SandboxBackend;
  /** The run's CPUs and memory, where it names them. */
  limits: SandboxLimitSettings;
  /** How long the test command may run, as a sample's grading may. */
  timeoutMs: number;
  /** Where reference runs are kept for later runs; none: made anew each time. */
  store?: () => ResultStore;
  imageFor?: SweValidationOptions['imageFor'];
  /** Label of the sandboxes, so `cleanup` finds them should the process die. */
  runId: string;
  signal?: AbortSignal;
  log?: Logger;
}

/**
 * The reference runs of SWE tasks: the gold patch on the original tests, in the task's image under the run's limits,
 * once per task, image and limits. Kept in the store, so a resume and later runs of the same image and limits take
 * them from there; an infrastructure failure is tried once more and never kept.
 */
export class ReferenceRuns {
  private readonly made = new Map<string, Promise<ReferenceOutcome>>();

  constructor(private readonly options: ReferenceRunsOptions) {}

  /** The limits a task's sandboxes get in this run. */
  limitsOf(task: SweTask): TaskSandboxLimits {
    return taskSandboxLimits(task, this.options.limits);
  }

  /** A task's reference run, made once however often it is asked for. */
  async of(task: SweTask): Promise<ReferenceOutcome> {
    const key = await this.keyOf(task);
    let outcome = this.made.get(key);
    if (!outcome) {
      outcome = this.make(task, key);
      this.made.set(key, outcome);
    }
    return outcome;
  }

  /** The gold patch's graded run on a task's original tests, for validation: the reference run itself. */
  async original(task: SweTask): Promise<SweGradeResult> {
    const outcome = await this.of(task);
    if (!outcome.grade) throw new Error(outcome.reason);
    return outcome.grade;
  }

  private async keyOf(task: SweTask): Promise<string> {
    const image = taskImage(task);
    const status = await this.options.backend.images.status(image);
    const original = referenceTask(task);
    const spec = sweTestSpec(original);
    const limits = this.limitsOf(task);
    const parts = [
      REFERENCE_FORMAT,
      task.id,
      task.repo,
      task.baseCommit,
      task.patch,
      task.originalTestPatch,
      original.failToPass,
      original.passToPass,
      spec.command,
      spec.env,
      spec.rootSetup,
      image,
      status.id ?? null,
      limits.cpus,
      limits.memoryBytes,
      limits.tarpits ?? [],
      this.options.timeoutMs,
    ];
    return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
  }

  private async make(task: SweTask, key: string): Promise<ReferenceOutcome> {
    const limits = this.limitsOf(task);
    const base = { taskId: task.id, key, limits };
    const kept = this.options.store?.().findReferenceRun(key);
    if (kept) return { ...base, ...verdict(task, kept.run), fromStore: true, durationMs: kept.durationMs };
    const started = performance.now();
    let run: ExecResult | undefined;
    let failure: string | undefined;
    for (let attempt = 1; attempt <= 2 && run === undefined; attempt++) {
      try {
        run = (await gradeWithPatchesRun(task, task.originalTestPatch, task.patch, 'reference', this.validationOptions())).run;
      } catch (err) {
        if (this.options.signal?.aborted) throw err;
        failure = (err as Error).message.split('\n')[0]!;
        this.options.log?.warn({ task: task.id, attempt, err: failure }, 'reference run failed');
        // The gold patch not applying is the task's data: another try would only repeat it.
        if (err instanceof GoldPatchError) break;
      }
    }
    const durationMs = performance.now() - started;
    if (run === undefined) {
      return { ...base, resolved: false, reason: `its reference run could not be made: ${failure}`, fromStore: false, durationMs };
    }
    // A run cut short by the time limit or the memory limit is kept too: under these limits it always will be.
    this.options.store?.().saveReferenceRun({
      key,
      taskId: task.id,
      image: taskImage(task),
      limits: { cpus: limits.cpus, memoryMb: Math.round(limits.memoryBytes / 1024 ** 2) },
      madeAt: new Date().toISOString(),
      durationMs,
      run,
    });
    return { ...base, ...verdict(task, run), fromStore: false, durationMs };
  }

  private validationOptions(): SweValidationOptions {
    const o = this.options;
    return {
      runId: o.runId,
      backend: o.backend,
      limits: o.limits,
      timeoutMs: o.timeoutMs,
      ...(o.imageFor ? { imageFor: o.imageFor } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    };
  }
}

/** What a reference run's output says of the task: resolved, or why not. */
function verdict(task: SweTask, run: ExecResult): Pick<ReferenceOutcome, 'resolved' | 'reason' | 'grade' | 'reference'> {
  const { grade, reference } = readReferenceRun(task, run);
  const resolved = grade.outcome === 'passed';
  const reason = resolved ? 'resolved' : (grade.log.split('\n')[0] ?? '').replace(/^outcome: \w+ \((.*)\)$/, '$1');
  return { resolved, reason: resolved ? reason : `the gold patch does not resolve it here: ${reason}`, grade, reference };
}

/** The graded tests a reference run skipped, with the reasons its runner gave. */
export function skippedInReference(outcome: ReferenceOutcome): { id: string; reason?: string }[] {
  const ref = outcome.reference;
  if (!ref) return [];
  return Object.entries(ref.statuses)
    .filter(([, s]) => s === 'SKIPPED')
    .map(([id]) => (ref.skipReasons[id] ? { id, reason: ref.skipReasons[id] } : { id }));
}

/** What a run records of a task's reference run. */
export function runReferenceRow(dataset: string, outcome: ReferenceOutcome): RunReference {
  const notPassed = outcome.grade ? judgeGradedTests(outcome.grade.failToPass, outcome.grade.passToPass, outcome.reference).notPassed : [];
  return {
    dataset,
    taskId: outcome.taskId,
    referenceKey: outcome.key,
    resolved: outcome.resolved,
    reason: outcome.reason,
    notPassed,
    skipped: skippedInReference(outcome),
    limits: describeLimits(outcome.limits),
  };
}
