import { taskImage } from '../../tasks/images.js';
import type { ExecResult, SandboxBackend, SandboxOptions } from '../../docker/types.js';
import { ROOT_USER } from '../../core/sandbox.js';
import { applyPatch, gradeSwe, referenceTask, setupSweRepo, sweContract, type SweGradeResult } from '../../tasks/env/swe.js';
import { type SandboxLimitSettings, taskSandboxLimits } from '../../tasks/env/sandbox-limits.js';
import { isPassing, type TestStatus } from '../../tasks/env/log-parsers.js';
import type { SweTask } from '../../tasks/task.js';
import type { Verdict } from './lcb.js';
import { inSandbox } from './pool.js';

export interface SweValidationOptions {
  runId?: string;
  /** Where the sandboxes come from (default: the default backend). */
  backend?: SandboxBackend;
  /** Variants validated side by side (default 2); each step gets its own fresh sandbox. */
  concurrency?: number;
  timeoutMs?: number;
  onDone?: (task: SweTask, verdict: Verdict) => void;
  signal?: AbortSignal;
  /** The image a task's sandbox starts from, when not its own (a history image): given the sandbox it would get. */
  imageFor?: (task: SweTask, sandbox: SandboxOptions) => Promise<string>;
  /** The CPUs and memory a task's sandboxes get (default: the default of its kind, `taskSandboxLimits`). */
  limits?: SandboxLimitSettings;
  /** The gold patch's runs on original tests, by task, shared between calls (a row whose next candidate is validated). */
  originals?: OriginalRuns;
  /** Where the gold patch's run on a task's original tests comes from, when not made here (a run's reference runs). */
  original?: (task: SweTask) => Promise<SweGradeResult>;
}

/**
 * Sets the repository up with `testPatch`, applies `fix` (may be empty), and grades, in a fresh sandbox of the task's
 * image; the test command's raw output comes back beside the grade.
 */
export async function gradeWithPatchesRun(
  task: SweTask,
  testPatch: string,
  fix: string,
  step: string,
  options: SweValidationOptions,
): Promise<{ grade: SweGradeResult; run: ExecResult }> {
  const graded: SweTask = { ...task, testPatch };
  const sandbox = {
    image: taskImage(task),
    runId: options.runId ?? 'mutate-validate',
    sampleId: `${task.id}-${step}`,
    ...taskSandboxLimits(task, options.limits),
  };
  const image = options.imageFor ? await options.imageFor(task, sandbox) : sandbox.image;
  return inSandbox({ ...sandbox, image, ...(options.backend ? { backend: options.backend } : {}) }, async (sandbox) => {
    const { runtime } = await setupSweRepo(sandbox, graded, { signal: options.signal });
    if (fix.trim()) {
      const applied = await applyPatch(sandbox, fix, { user: ROOT_USER, signal: options.signal });
      if (!applied.applied) throw new GoldPatchError(`the gold patch does not apply: ${applied.log}`);
    }
    let run: ExecResult | undefined;
    const grade = await gradeSwe(sandbox, sweContract(graded), {
      runtime,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      onRun: (r) => {
        run = r;
      },
    });
    return { grade, run: run! };
  });
}

/** The gold patch does not apply to the task's repository: the task's data, not the infrastructure, is at fault. */
export class GoldPatchError extends Error {}

/** Sets the repository up with `testPatch`, applies `fix` (may be empty), and grades, in a fresh sandbox of the task's image. */
export async function gradeWithPatches(
  task: SweTask,
  testPatch: string,
  fix: string,
  step: string,
  options: SweValidationOptions,
): Promise<SweGradeResult> {
  return (await gradeWithPatchesRun(task, testPatch, fix, step, options)).grade;
}

function statusOf(result: SweGradeResult, id: string): TestStatus | 'MISSING' {
  return result.failToPass[id] ?? result.passToPass[id] ?? result.statuses[id] ?? 'MISSING';
}

/** Why a run says the environment is broken rather than anything of the variant: it did not complete, or missed tests. */
function brokenRun(result: SweGradeResult, ids: readonly string[]): string | undefined {
  if (result.outcome === 'timeout') return 'the test run timed out';
  if (!result.completed) return `the test run did not complete (exit code ${result.exitCode})`;
  const missing = ids.filter((id) => statusOf(result, id) === 'MISSING');
  if (missing.length > 0) return `${missing.length} graded test(s) never ran: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`;
  return undefined;
}

export type OriginalRuns = Map<string, Promise<SweGradeResult>>;

async function validateOne(task: SweTask, originals: OriginalRuns, options: SweValidationOptions): Promise<Verdict> {
  const evidence: string[] = [];
  const reject = (reason: string): Verdict => ({ ok: false, reason, evidence });
  const broken = (reason: string): Verdict => ({ ok: false, environment: true, reason: `the environment is broken: ${reason}`, evidence });
  const target = task.mutation?.testId;
  if (!task.mutation || !target) return reject('the variant has no mutation record naming its target test');
  try {
    const key = `${task.id}\u0000${task.originalTestPatch}`;
    if (!originals.has(key))
      originals.set(
        key,
        options.original
          ? options.original(task)
          : gradeWithPatches(referenceTask(task), task.originalTestPatch, task.patch, 'original-gold', options),
      );
    const original = await originals.get(key)!;
    evidence.push(`gold patch on the original tests: ${original.outcome}`);
    const tests = referenceTask(task);
    const unusable = brokenRun(original, [...tests.failToPass, ...tests.passToPass]);
    if (unusable) return broken(`with the gold patch on the original tests, ${unusable}`);
    if (original.outcome !== 'passed')
      return broken(`the gold patch fails the original tests here (${original.outcome}): the task does not resolve in this image`);
    const [gold, empty] = await Promise.all([
      gradeWithPatches(task, task.testPatch, task.patch, 'variant-gold', options),
      gradeWithPatches(task, task.testPatch, '', 'variant-empty', options),
    ]);
    const targetStatus = statusOf(gold, target);
    evidence.push(`gold patch on the variant: ${gold.outcome}, target ${target} ${targetStatus}`);
    evidence.push(`empty patch on the variant: ${empty.outcome}`);
    if (gold.outcome === 'passed') return { ...reject('the gold patch passes the variant'), notImpossible: true };
    if (gold.outcome === 'timeout') return broken('with the gold patch on the variant, the test run timed out');
    if (gold.outcome !== 'failed') return reject(`the gold patch ${gold.outcome} on the variant`);
    if (targetStatus === 'MISSING') return reject(`the target test ${target} did not run on the variant`);
    if (isPassing(targetStatus as TestStatus))
      return { ...reject(`the target test ${target} still passes with the gold patch`), notImpossible: true };
    if (empty.outcome === 'passed' || empty.outcome === 'evaded')
      return { ...reject(`an empty patch ${empty.outcome} the variant`), unfixedPasses: true };
    return { ok: true, evidence };
  } catch (err) {
    if (options.signal?.aborted) throw err;
    // Infrastructure trouble is no verdict on the variant: say so rather than call it invalid.
    return { ...reject(`could not validate: ${(err as Error).message.split('\n')[0]}`), infrastructure: true };
  }
}

/**
 * Validates SWE variants in Docker: the gold patch passes the original FAIL_TO_PASS and
 * PASS_TO_PASS tests, fails the variant's target test, and an empty patch fails the variant.
 */
export async function validateSweVariants(variants: readonly SweTask[], options: SweValidationOptions = {}): Promise<Verdict[]> {
  const originals = options.originals ?? new Map<string, Promise<SweGradeResult>>();
  const results: Verdict[] = new Array(variants.length);
  let next = 0;
  const workers = Math.max(1, Math.min(options.concurrency ?? 2, variants.length));
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < variants.length) {
        options.signal?.throwIfAborted();
        const i = next++;
        results[i] = await validateOne(variants[i]!, originals, options);
        options.onDone?.(variants[i]!, results[i]!);
      }
    }),
  );
  return results;
}
