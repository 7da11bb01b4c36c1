import { PYTHON_IMAGE } from '../../docker/image-names.js';
import type { Sandbox, SandboxBackend } from '../../docker/types.js';
import { gradeLcb, lcbContract, type LcbGradeResult } from '../../tasks/env/lcb.js';
import type { LcbTask } from '../../tasks/task.js';
import { readCheckSource } from '../../python/check.js';
import { lastExceptionType, onSandboxes } from './pool.js';

export interface Verdict {
  ok: boolean;
  /** The checks could not run (engine, image, grader): no verdict on the variant itself. */
  infrastructure?: boolean;
  /**
   * The task does not work in its environment (the gold patch's run on the original tests did not complete, missed
   * graded tests, or failed them): no verdict on the variant either, but on the image or its test spec.
   */
  environment?: boolean;
  /** The variant is not impossible: the reference (solution or gold patch) passes it, so another candidate may be tried. */
  notImpossible?: boolean;
  /** An empty patch (or stub) passes the variant: it states what the unfixed code does, so another candidate may be tried. */
  unfixedPasses?: boolean;
  /** Why the variant was rejected (one line). */
  reason?: string;
  /** What was run and what came out, one line each. */
  evidence: string[];
}

export interface LcbValidationOptions {
  runId?: string;
  /** Where the sandboxes come from (default: the default backend). */
  backend?: SandboxBackend;
  /** Sandboxes run side by side (default 2). */
  sandboxes?: number;
  timeoutMs?: number;
  onDone?: (task: LcbTask, verdict: Verdict) => void;
  signal?: AbortSignal;
}

function grade(sandbox: Sandbox, task: LcbTask, solution: string, test: string, timeoutMs: number, signal?: AbortSignal): Promise<LcbGradeResult> {
  return gradeLcb(sandbox, lcbContract({ ...task, test }), { code: solution, order: 'solution-before-tests' }, { timeoutMs, signal });
}

/** The lines (1-based, inclusive) of the assertion at `line` in a test. */
export async function assertionLines(test: string, line: number): Promise<[number, number] | undefined> {
  const r = await readCheckSource(test);
  if (!r.ok) return undefined;
  const a = r.check.assertions.find((x) => x.line === line);
  return a ? [a.line, a.endLine] : undefined;
}

/**
 * Whether a solution fails a variant the way an impossible test must: an AssertionError raised by
 * the given assertion, not a syntax or name error, a crash or a time-out.
 */
export async function failsAtAssertion(run: LcbGradeResult, lines: [number, number] | undefined): Promise<string | undefined> {
  if (run.outcome !== 'failed')
    return `the solution ${run.outcome === 'passed' ? 'passes' : run.outcome === 'evaded' ? 'evades' : 'times out on'} the variant`;
  const exc = lastExceptionType(run.stderr);
  if (exc !== 'AssertionError') return `the variant fails with ${exc ?? 'no traceback'}, not an AssertionError`;
  if (lines) {
    const at = run.failingAssertion?.line;
    if (at === undefined || at < lines[0] || at > lines[1])
      return `the AssertionError comes from line ${at ?? '?'}, not from the mutated assertion (lines ${lines[0]}-${lines[1]})`;
  }
  return undefined;
}

/**
 * Validates LiveCodeBench variants in a few shared sandboxes: the reference solution passes the
 * original test and fails the variant with an AssertionError at the mutated assertion, and the
 * empty stub fails the variant too. Variants without a reference solution cannot be validated.
 */
export async function validateLcbVariants(variants: readonly LcbTask[], options: LcbValidationOptions = {}): Promise<Verdict[]> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const originalRuns = new Map<string, Promise<LcbGradeResult>>();
  return onSandboxes(
    variants,
    {
      image: PYTHON_IMAGE,
      runId: options.runId ?? 'mutate-validate',
      size: options.sandboxes ?? 2,
      signal: options.signal,
      backend: options.backend,
    },
    async (sandbox, task) => {
      let verdict: Verdict;
      try {
        verdict = await validateOne(sandbox, task, timeoutMs, originalRuns, options.signal);
      } catch (err) {
        if (options.signal?.aborted) throw err;
        verdict = { ok: false, infrastructure: true, reason: `could not validate: ${(err as Error).message.split('\n')[0]}`, evidence: [] };
      }
      options.onDone?.(task, verdict);
      return verdict;
    },
  );
}

async function validateOne(
  sandbox: Sandbox,
  task: LcbTask,
  timeoutMs: number,
  originalRuns: Map<string, Promise<LcbGradeResult>>,
  signal?: AbortSignal,
): Promise<Verdict> {
  const evidence: string[] = [];
  const reject = (reason: string): Verdict => ({ ok: false, reason, evidence });
  if (!task.solution) return reject('no reference solution to validate with');
  if (!task.mutation) return reject('the variant has no mutation record');
  const key = `${task.id}\u0000${task.originalTest}`;
  if (!originalRuns.has(key)) originalRuns.set(key, grade(sandbox, task, task.solution, task.originalTest, timeoutMs, signal));
  const original = await originalRuns.get(key)!;
  evidence.push(`reference on the original test: ${original.outcome}`);
  if (original.outcome !== 'passed') return reject(`the reference solution does not pass the original test (${original.outcome})`);
  const variant = await grade(sandbox, task, task.solution, task.test, timeoutMs, signal);
  evidence.push(`reference on the variant: ${variant.outcome}${variant.failingAssertion ? ` at line ${variant.failingAssertion.line}` : ''}`);
  const lines = await assertionLines(task.test, task.mutation.line);
  if (!lines) return reject(`the variant has no assertion at line ${task.mutation.line}`);
  const problem = await failsAtAssertion(variant, lines);
  // Passed by the reference, the variant is not impossible; another candidate may be.
  if (problem) return variant.outcome === 'passed' ? { ...reject(problem), notImpossible: true } : reject(problem);
  const stub = await grade(sandbox, task, '', task.test, timeoutMs, signal);
  evidence.push(`empty stub on the variant: ${stub.outcome}`);
  if (stub.outcome === 'passed' || stub.outcome === 'evaded') return { ...reject(`the empty stub ${stub.outcome} the variant`), unfixedPasses: true };
  return { ok: true, evidence };
}
