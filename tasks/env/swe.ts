import { randomBytes } from 'node:crypto';
import type { ExecResult, Sandbox } from '../../docker/types.js';
import { AGENT_HOME, AGENT_USER, HARNESS_DIR, ROOT_USER } from '../../core/sandbox.js';
import { APPLY_PATCH_FN, withNewline } from './patch-shell.js';
import { readContractReport, sweContract, type SweContract, type SweGradeResult } from './swe-contract.js';
import type { SweReference, SweTask } from '../task.js';
import { gradingEnv, runInFreshCopy, runInPlace, type SweGuard } from './swe-guard.js';
import { IMAGE_PATH_RUNTIME, type SweRuntime } from './swe-setup.js';

export { GradingError, isPermanentError } from './errors.js';
export { APPLY_PATCH_FN, withNewline } from './patch-shell.js';
export { setupSweRepo, GRADER_USER, IMAGE_PATH_RUNTIME, type SweRuntime, type SweSetupOptions } from './swe-setup.js';
import { TESTBED } from './swe-specs.js';

export { TESTBED, filesInPatch, sweTestSpec } from './swe-specs.js';
export { sweContract, readSweReport, type SweContract, type SweGradeOutcome, type SweGradeResult } from './swe-contract.js';
export { asRoot, setupSweGrading, forgetPristineFacts, type SweGuard, type SweGradingSetup } from './swe-guard.js';
export { PYTHON_IMAGE as SWE_DEFAULT_IMAGE } from '../../docker/image-names.js';

export interface ApplyResult {
  applied: boolean;
  log: string;
}

/**
 * Applies a unified diff in /testbed with `git apply` inside the sandbox. Empty patches apply
 * trivially. Runs as the agent by default (the patch text is the agent's; /testbed is theirs
 * after setup, and files the patch creates stay editable by them).
 */
export async function applyPatch(
  sandbox: Sandbox,
  patch: string,
  options: { user?: string; cwd?: string; signal?: AbortSignal } = {},
): Promise<ApplyResult> {
  if (!patch.trim()) return { applied: true, log: 'empty patch' };
  const path = `${HARNESS_DIR}/patch-${randomBytes(4).toString('hex')}.diff`;
  const user = options.user ?? AGENT_USER;
  const asRoot = user === ROOT_USER;
  // The folder is made as the archive is unpacked; the patch is a file, never shell text.
  await sandbox.writeFiles([{ path, content: withNewline(patch), mode: 0o644 }]);
  try {
    // Root may also remove the file in the same call; another user cannot write the scratch folder.
    const run = await sandbox.exec(['sh', '-c', APPLY, 'apply', path, asRoot ? 'rm' : 'keep'], {
      cwd: options.cwd ?? TESTBED,
      user,
      timeoutMs: 60_000,
      signal: options.signal,
    });
    const log = run.stderr.trim();
    return run.exitCode === 0 ? { applied: true, log } : { applied: false, log };
  } finally {
    if (!asRoot) await sandbox.exec(['rm', '-f', path], { user: ROOT_USER, timeoutMs: 30_000 }).catch(() => undefined);
  }
}

/** $1 = the patch file, $2 = rm|keep. */
const APPLY = [APPLY_PATCH_FN, 'status=0', 'apply_patch "$1" || status=1', 'if [ "$2" = rm ]; then rm -f "$1"; fi', 'exit $status'].join('\n');

export interface SweGradeOptions {
  /** How commands enter the repository's environment (from setup); default the image's PATH. */
  runtime?: SweRuntime;
  /** Default 30 minutes, as SWE-bench. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * The guards of an agent's sample, as `setupSweGrading` made them. Without: a bare run of the test command in
   * /testbed as the agent user (a variant's validation, a reference solution, a bare graded run).
   */
  guard?: SweGuard;
  /** Told of a bare run's raw output before it is read (a reference run keeps it, to read it again later). */
  onRun?: (run: ExecResult) => void;
}

/**
 * The one grader of SWE-style tasks: runs the contract's test command and reads its report as SWE-bench does. The
 * tamper signs the guards found come first in the result's, then those of the log.
 */
export async function gradeSwe(sandbox: Sandbox, contract: SweContract, options: SweGradeOptions = {}): Promise<SweGradeResult> {
  const runtime = options.runtime ?? IMAGE_PATH_RUNTIME;
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const { guard } = options;
  if (guard) {
    const guarded = { runtime, timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
    const { run, tamper } =
      guard.mode === 'in-place' ? await runInPlace(sandbox, contract, guarded) : await runInFreshCopy(sandbox, contract, guard, guarded);
    const result = readContractReport(contract, run);
    return { ...result, tamper: [...new Set([...tamper, ...result.tamper])] };
  }
  const run = await sandbox.exec(['sh', '-c', contract.spec.command], {
    cwd: TESTBED,
    user: AGENT_USER,
    env: gradingEnv(contract, runtime, AGENT_HOME),
    timeoutMs,
    // Per-test lines come early in a long run: keep them all rather than only head and tail.
    maxOutputBytes: 64 * 1024 * 1024,
    signal: options.signal,
  });
  options.onRun?.(run);
  return readContractReport(contract, run);
}

/** A task as its reference run grades it: the original tests, whatever split the task is of. */
export function referenceTask(task: SweTask): SweTask {
  const { reference: _, mutation: __, ...rest } = task;
  // A case the variant added to FAIL_TO_PASS is in its tests alone.
  const added = new Set(task.mutation?.addedTests ?? []);
  return { ...rest, variant: 'original', testPatch: task.originalTestPatch, failToPass: task.failToPass.filter((id) => !added.has(id)) };
}

/**
 * Reads a task's reference run (the gold patch on the original tests, a bare run kept by `onRun`): what it showed of
 * each graded test, and whether it resolves the task as SWE-bench grades it. A skipped PASS_TO_PASS test is no
 * regression there, since the run is its own reference; a skipped FAIL_TO_PASS test resolves nothing.
 */
export function readReferenceRun(task: SweTask, run: ExecResult): { grade: SweGradeResult; reference: SweReference } {
  const original = referenceTask(task);
  const seen = readContractReport(sweContract(original), run);
  const reference: SweReference = { statuses: { ...seen.passToPass, ...seen.failToPass }, skipReasons: seen.skipReasons };
  return { grade: readContractReport(sweContract({ ...original, reference }), run), reference };
}

/** How long a SWE grading may run: the tool limit, but never under 15 minutes (a repository's suite takes its time). */
export function sweGradeTimeoutMs(toolTimeoutMs: number): number {
  return Math.max(toolTimeoutMs, 15 * 60_000);
}
