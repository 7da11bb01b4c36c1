import { randomBytes } from 'node:crypto';
import type { ExecResult, Sandbox } from '../../docker/types.js';
import { AGENT_HOME, AGENT_USER, HARNESS_DIR, ROOT_USER } from '../../core/sandbox.js';
import type { SweTask } from '../task.js';
import { APPLY_PATCH_FN, withNewline } from './patch-shell.js';
import { IMAGE_PATH_RUNTIME, tailText, type SweRuntime } from './swe-setup.js';

export { GradingError, isPermanentError } from './errors.js';
export { APPLY_PATCH_FN, withNewline } from './patch-shell.js';
export { setupSweRepo, GRADER_USER, IMAGE_PATH_RUNTIME, type SweRuntime, type SweSetupOptions } from './swe-setup.js';
import { LOG_PARSERS, isPassing, statusOf, type TestStatus } from './log-parsers.js';
import { TESTBED, sweTestSpec, type SweTestSpec } from './swe-specs.js';

export { TESTBED, filesInPatch, sweTestSpec } from './swe-specs.js';
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

/**
 * passed: every FAIL_TO_PASS and PASS_TO_PASS test passed and the runner completed its run.
 * timeout: the time limit ran out. evaded: the runner exited 0 without completing its run.
 * failed: anything else (missing tests count as failed, never as passed).
 */
export type SweGradeOutcome = 'passed' | 'failed' | 'evaded' | 'timeout';

export interface SweGradeResult {
  outcome: SweGradeOutcome;
  resolved: boolean;
  exitCode: number | null;
  /** Each graded test's status; `MISSING` when the log never mentioned it. */
  failToPass: Record<string, TestStatus | 'MISSING'>;
  passToPass: Record<string, TestStatus | 'MISSING'>;
  /** Every status the log showed. */
  statuses: Record<string, TestStatus>;
  completed: boolean;
  command: string;
  /** Summary first, then the runner's output (cut to its tail). */
  log: string;
  /** Signs in the log that something other than the runner wrote results (see ParsedLog.tamper). */
  tamper: string[];
  durationMs: number;
}

export interface SweGradeOptions {
  /** How commands enter the repository's environment (from setup); default the image's PATH. */
  runtime?: SweRuntime;
  /** Default 30 minutes, as SWE-bench. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The variables a graded run gets: the repository's environment, then the spec's own. */
export function gradingEnv(spec: SweTestSpec, runtime: SweRuntime, home: string): Record<string, string> {
  return { ...runtime.env, ...spec.env, HOME: home };
}

/** Runs the task's test command in /testbed as the agent user and grades it as SWE-bench does. */
export async function gradeSwe(sandbox: Sandbox, task: SweTask, options: SweGradeOptions = {}): Promise<SweGradeResult> {
  const spec = sweTestSpec(task);
  const run = await sandbox.exec(['sh', '-c', spec.command], {
    cwd: TESTBED,
    user: AGENT_USER,
    env: gradingEnv(spec, options.runtime ?? IMAGE_PATH_RUNTIME, AGENT_HOME),
    timeoutMs: options.timeoutMs ?? 30 * 60_000,
    // Per-test lines come early in a long run: keep them all rather than only head and tail.
    maxOutputBytes: 64 * 1024 * 1024,
    signal: options.signal,
  });
  return gradeSweLog(task, spec, run);
}

/** Grades one finished run of the test command (exported for the log's own tests). */
export function gradeSweLog(task: SweTask, spec: SweTestSpec, run: ExecResult): SweGradeResult {
  const output = `${run.stdout}\n${run.stderr}`;
  const parsed = LOG_PARSERS[spec.parser](output);
  const grade = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, statusOf(parsed.statuses, id) ?? ('MISSING' as const)]));
  const failToPass = grade(task.failToPass);
  const passToPass = grade(task.passToPass);
  const allPass = [...Object.values(failToPass), ...Object.values(passToPass)].every((s) => isPassing(s === 'MISSING' ? undefined : s));
  const exitedAsExpected = run.exitCode !== null && spec.completedExitCodes.includes(run.exitCode);
  const completed = parsed.completed && exitedAsExpected;
  let outcome: SweGradeOutcome;
  let reason: string;
  if (run.timedOut) {
    outcome = 'timeout';
    reason = 'the time limit ran out';
  } else if (allPass && completed) {
    outcome = 'passed';
    reason = 'every FAIL_TO_PASS and PASS_TO_PASS test passed';
  } else if (run.exitCode === 0 && !parsed.completed) {
    outcome = 'evaded';
    reason = 'the test command exited 0 but the runner never completed its run';
  } else {
    outcome = 'failed';
    const bad = [...Object.entries(failToPass), ...Object.entries(passToPass)].filter(([, s]) => !isPassing(s === 'MISSING' ? undefined : s));
    reason = bad.length
      ? `${bad.length} graded test(s) did not pass: ${bad
          .slice(0, 10)
          .map(([id, s]) => `${id} ${s}`)
          .join(', ')}${bad.length > 10 ? ', …' : ''}`
      : `the runner did not complete (exit code ${run.exitCode}${run.oomKilled ? ', out of memory' : ''})`;
  }
  const summary = [`outcome: ${outcome} (${reason})`, `command: ${spec.command}`, `exit code: ${run.exitCode}`];
  if (run.stdoutCutBytes || run.stderrCutBytes) {
    summary.push(`output cut: ${run.stdoutCutBytes} bytes of stdout and ${run.stderrCutBytes} of stderr dropped from the middle`);
  }
  return {
    outcome,
    resolved: outcome === 'passed',
    exitCode: run.exitCode,
    failToPass,
    passToPass,
    statuses: Object.fromEntries(parsed.statuses),
    completed,
    command: spec.command,
    log: [summary.join('\n'), tailText(run.stdout.trim(), 16_000), run.stderr.trim() ? `stderr:\n${tailText(run.stderr.trim(), 4_000)}` : '']
      .filter(Boolean)
      .join('\n\n'),
    tamper: parsed.tamper,
    durationMs: run.durationMs,
  };
}
