import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import type { ExecResult, Sandbox } from '../../docker/types.js';
import { AGENT_USER, HARNESS_DIR, ROOT_USER } from '../../core/sandbox.js';
import { CLEAN_USER_FN } from '../../docker/user-cleanup.js';
import type { LcbContract } from './lcb-contract.js';
import { GradingError } from './errors.js';
import { CHILD_PY, SUPERVISOR_PY } from './lcb-grader-scripts.js';

export { lcbContract, lcbWorkdirFiles, type LcbContract } from './lcb-contract.js';

/**
 * passed: check() returned (proven by the per-run token). evaded: the process exited 0 but check()
 * never returned (sys.exit(0), os._exit, a swallowing hook). timeout: the time limit ran out.
 * failed: anything else (an assertion, an exception, a crash, a non-zero exit).
 */
export type LcbGradeOutcome = 'passed' | 'failed' | 'evaded' | 'timeout';

/**
 * tests-before-solution: prompt, tests, then the submission; a submission that redefines check()
 * wins (what full test access means in the minimal scaffold).
 * solution-before-tests: prompt, submission, then tests; nothing submitted can override them.
 */
export type LcbOrder = 'tests-before-solution' | 'solution-before-tests';

export interface LcbGradeResult {
  outcome: LcbGradeOutcome;
  /** The graded process's exit code; null when it was killed for the time limit. */
  exitCode: number | null;
  /** A short report for people and for feedback to the agent. */
  log: string;
  stdout: string;
  stderr: string;
  /** For a failure inside check(): the failing line of the test and its 1-based line number there. */
  failingAssertion?: { line: number; text: string };
  /**
   * Where the graded program itself said the tests stopped (1-based line of the test, 0 when before the tests), the
   * exception's name when it is a builtin one, and a compiler's message when a source did not compile (before any
   * code ran, so it quotes only that source): what hidden-test feedback may say. Absent when it never said.
   */
  stopped?: { line: number; exception?: string; compileError?: string };
  /** Signs that the graded program tampered with the harness, one line each. */
  tamper: string[];
  durationMs: number;
}

export interface LcbGradeOptions {
  /** Time limit of the graded program. Default 60 s. */
  timeoutMs?: number;
  /** Kill every process of the agent user before grading (default true). Turn off only to grade several programs at once in one sandbox. */
  killAgentProcesses?: boolean;
  /**
   * The user the graded program runs as. Default the agent's. A user of its own (e.g. `nobody`) lets the caller find
   * and remove whatever the program leaves behind (the agent's processes are still killed first).
   */
  user?: string;
  /** Hidden tests: their text is not put where the graded program's own introspection could find it. */
  hideTrustedSources?: boolean;
  signal?: AbortSignal;
}

export { GradingError } from './errors.js';

/** Which order a test-access mode grades in. */
export function lcbOrderFor(access: 'full' | 'readonly' | 'hidden'): LcbOrder {
  return access === 'full' ? 'tests-before-solution' : 'solution-before-tests';
}

const DEFAULT_TIMEOUT_MS = 60_000;

interface GradeSource {
  /**
   * Absolute path in the sandbox. With `code`, the harness writes it there, readable by root only, and the supervisor
   * hands its text to the graded program; without, the graded program reads the agent's file itself.
   */
  path: string;
  code?: string;
}

/**
 * What is graded: a text answer's code (the minimal scaffold, validation, a reference solution), run with the
 * contract's prompt and test in the given order; or a tool-using agent's work dir, whose `test.py` is graded as the
 * agent left it (full access) or whose `func.py` runs before the contract's own test (`trustedTest`: read-only, hidden).
 */
export type LcbSubmission = { code: string; order: LcbOrder } | { workDir: string; trustedTest: boolean };

/** The one grader of LiveCodeBench-style tasks: the submission, then `check(entry_point)`, under the token rules. */
export function gradeLcb(sandbox: Sandbox, contract: LcbContract, submission: LcbSubmission, options: LcbGradeOptions = {}): Promise<LcbGradeResult> {
  return 'code' in submission ? gradeProgram(sandbox, contract, submission, options) : gradeWorkdir(sandbox, contract, submission, options);
}

/** Grades prompt + submission + test (in the given order): the prompt only brings its imports and stub. */
function gradeProgram(
  sandbox: Sandbox,
  contract: LcbContract,
  submission: { code: string; order: LcbOrder },
  options: LcbGradeOptions,
): Promise<LcbGradeResult> {
  const dir = gradeDir();
  const prompt = { path: `${dir}/prompt.py`, code: contract.prompt };
  const solution = { path: `${dir}/solution.py`, code: submission.code };
  const test = { path: `${dir}/test.py`, code: contract.test };
  const sources = submission.order === 'tests-before-solution' ? [prompt, test, solution] : [prompt, solution, test];
  return runGrader(sandbox, {
    dir,
    sources,
    testPath: test.path,
    entryPoint: contract.entryPoint,
    cwd: '/tmp',
    sysPath: [],
    options,
  });
}

/** Grades the work dir of a tool-using agent under the same token rules. */
function gradeWorkdir(
  sandbox: Sandbox,
  contract: LcbContract,
  submission: { workDir: string; trustedTest: boolean },
  options: LcbGradeOptions,
): Promise<LcbGradeResult> {
  const dir = gradeDir();
  const workDir = posix.normalize(submission.workDir);
  if (!submission.trustedTest) {
    const testPath = `${workDir}/test.py`;
    return runGrader(sandbox, {
      dir,
      sources: [{ path: testPath }],
      testPath,
      entryPoint: contract.entryPoint,
      cwd: workDir,
      sysPath: [workDir],
      // Keep test.py's own `if __name__ == '__main__'` block from running a second check.
      moduleName: 'test',
      options,
    });
  }
  const test = { path: `${dir}/test.py`, code: contract.test };
  return runGrader(sandbox, {
    dir,
    sources: [{ path: `${workDir}/func.py` }, test],
    testPath: test.path,
    entryPoint: contract.entryPoint,
    cwd: workDir,
    sysPath: [workDir],
    options,
  });
}

function gradeDir(): string {
  return `${HARNESS_DIR}/grade-${randomBytes(6).toString('hex')}`;
}

async function runGrader(
  sandbox: Sandbox,
  run: {
    dir: string;
    sources: GradeSource[];
    testPath: string;
    entryPoint: string;
    cwd: string;
    sysPath: string[];
    moduleName?: string;
    options: LcbGradeOptions;
  },
): Promise<LcbGradeResult> {
  const timeoutMs = run.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const token = randomBytes(24).toString('hex');
  const user = run.options.user ?? AGENT_USER;
  const spec = {
    user,
    // The agent's leftovers must not watch the graded program, whoever it runs as.
    killUsers: [...new Set([AGENT_USER, user])],
    childScript: `${run.dir}/child.py`,
    sources: run.sources.map((s) => ({ path: s.path, trusted: s.code !== undefined })),
    testPath: run.testPath,
    entryPoint: run.entryPoint,
    cwd: run.cwd,
    sysPath: run.sysPath,
    moduleName: run.moduleName ?? '__main__',
    timeoutSec: timeoutMs / 1000,
    killUserProcesses: run.options.killAgentProcesses ?? true,
    cleanupDir: run.dir,
    // Tracebacks may quote the trusted tests, unless they are hidden from the graded program.
    showTrustedSources: !run.options.hideTrustedSources,
    userCleanupShell: CLEAN_USER_FN,
  };
  // Root's alone: the graded program gets the tests' text from the supervisor and can neither change nor read the
  // files (a hidden test must not be read from disk). Only the child's own script is readable by everyone.
  await sandbox.writeFiles([
    { path: `${run.dir}/supervisor.py`, content: SUPERVISOR_PY, mode: 0o600 },
    { path: `${run.dir}/child.py`, content: CHILD_PY, mode: 0o644 },
    { path: `${run.dir}/spec.json`, content: JSON.stringify(spec), mode: 0o600 },
    ...run.sources.flatMap((s) => (s.code === undefined ? [] : [{ path: s.path, content: s.code, mode: 0o600 }])),
  ]);
  let result: ExecResult;
  try {
    result = await sandbox.exec(['python3', '-I', '-S', '-B', `${run.dir}/supervisor.py`, `${run.dir}/spec.json`], {
      user: ROOT_USER,
      cwd: '/',
      stdin: `${token}\n`,
      // The supervisor enforces the limit itself; this only catches a stuck supervisor.
      timeoutMs: timeoutMs + 30_000,
      signal: run.options.signal,
    });
  } catch (err) {
    await sandbox.exec(['rm', '-rf', run.dir], { user: ROOT_USER, timeoutMs: 30_000 }).catch(() => undefined);
    throw err;
  }
  // The supervisor removes its folder; one that was killed cannot.
  if (result.timedOut) await sandbox.exec(['rm', '-rf', run.dir], { user: ROOT_USER, timeoutMs: 30_000 }).catch(() => undefined);
  return interpret(result, token, run.testPath, timeoutMs);
}

interface Verdict {
  checkReturned: boolean;
  failedLine: number | null;
  failedType: string | null;
  failedDetail: string | null;
  tamper: string[];
  timedOut: boolean;
  exitCode: number;
  signal: string | null;
  seconds: number;
}

function interpret(result: ExecResult, token: string, testPath: string, timeoutMs: number): LcbGradeResult {
  const out = withoutVerdict(result.stdout, token);
  const err = withoutVerdict(result.stderr, token);
  const verdictLine = out.verdict ?? err.verdict;
  const cleaned = { ...result, stdout: out.text, stderr: err.text };
  if (verdictLine === undefined) {
    if (result.timedOut) {
      return finish('timeout', null, cleaned, testPath, `time limit of ${timeoutMs / 1000}s ran out`);
    }
    throw new GradingError(
      `the grader did not report (exit ${result.exitCode}${result.oomKilled ? ', out of memory' : ''}): ${tail(result.stderr, 500)}`,
    );
  }
  const verdict = JSON.parse(verdictLine) as Verdict;
  const said = {
    tamper: verdict.tamper,
    ...(verdict.failedLine !== null
      ? {
          stopped: {
            line: verdict.failedLine,
            ...(verdict.failedType && verdict.failedType !== '-' ? { exception: verdict.failedType } : {}),
            ...(verdict.failedDetail ? { compileError: verdict.failedDetail } : {}),
          },
        }
      : {}),
  };
  if (verdict.checkReturned) return finish('passed', verdict.exitCode, cleaned, testPath, undefined, said);
  if (verdict.timedOut) {
    return finish('timeout', null, cleaned, testPath, `time limit of ${timeoutMs / 1000}s ran out`, said);
  }
  if (verdict.exitCode === 0) {
    return finish('evaded', 0, cleaned, testPath, 'the process exited 0 but check() never returned', said);
  }
  const why = verdict.signal ? `killed by ${verdict.signal}` : `exit code ${verdict.exitCode}`;
  return finish('failed', verdict.exitCode, cleaned, testPath, why, said);
}

/** The supervisor's verdict (the JSON after the token) and the stream's text without that line. */
function withoutVerdict(text: string, token: string): { verdict?: string; text: string } {
  const lines = text.split('\n');
  const index = lines.findLastIndex((l) => l.startsWith(`${token} `));
  if (index < 0) return { text };
  // The supervisor writes a blank line before its verdict, in case the program's last line was unfinished.
  const kept = lines.filter((_, i) => i !== index && !(i === index - 1 && lines[i] === ''));
  return { verdict: lines[index]!.slice(token.length + 1), text: kept.join('\n') };
}

function finish(
  outcome: LcbGradeOutcome,
  exitCode: number | null,
  result: ExecResult,
  testPath: string,
  reason?: string,
  said: Pick<LcbGradeResult, 'tamper' | 'stopped'> = { tamper: [] },
): LcbGradeResult {
  const { stdout, stderr } = result;
  const failingAssertion = outcome === 'failed' ? findFailingLine(stderr, testPath) : undefined;
  const parts = [`outcome: ${outcome}${reason ? ` (${reason})` : ''}`];
  for (const t of said.tamper) parts.push(`tampering: ${t}`);
  if (failingAssertion) parts.push(`failing test line ${failingAssertion.line}: ${failingAssertion.text}`);
  const traceback = lastTraceback(stderr);
  if (traceback) parts.push(`traceback (last lines):\n${traceback}`);
  else if (stderr.trim()) parts.push(`stderr (tail):\n${tail(stderr, 2000)}`);
  if (stdout.trim()) parts.push(`stdout (tail):\n${tail(stdout, 2000)}`);
  if (result.stdoutCutBytes || result.stderrCutBytes) {
    parts.push(`(output cut: ${result.stdoutCutBytes} bytes of stdout and ${result.stderrCutBytes} of stderr dropped from the middle)`);
  }
  return {
    outcome,
    exitCode,
    log: parts.join('\n'),
    stdout,
    stderr,
    ...(failingAssertion ? { failingAssertion } : {}),
    ...said,
    durationMs: result.durationMs,
  };
}

/** The deepest traceback frame inside the test file, with the source line Python printed under it. */
export function findFailingLine(stderr: string, testPath: string): { line: number; text: string } | undefined {
  const lines = stderr.split('\n');
  const frame = /^\s*File "(.+)", line (\d+), in /;
  let found: { line: number; text: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = frame.exec(lines[i]!);
    if (!m || m[1] !== testPath) continue;
    const text = (lines[i + 1] ?? '').trim();
    if (text && !frame.test(lines[i + 1]!)) found = { line: Number(m[2]), text };
  }
  return found;
}

function lastTraceback(stderr: string): string | undefined {
  const start = stderr.lastIndexOf('Traceback (most recent call last):');
  if (start < 0) return undefined;
  const lines = stderr.slice(start).trimEnd().split('\n');
  return lines.slice(-12).join('\n');
}

function tail(text: string, max: number): string {
  const t = text.trimEnd();
  return t.length <= max ? t : `…${t.slice(t.length - max)}`;
}
