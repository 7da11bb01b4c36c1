import type { ExecResult } from '../../docker/types.js';
import { taskImage } from '../images.js';
import type { SweTask } from '../task.js';
import { judgeGradedTests } from './graded-tests.js';
import { LOG_PARSERS, reasonOf, statusOf, type LogParserName, type ParsedLog, type SkipSummary, type TestStatus } from './log-parsers.js';
import { tailText } from './swe-setup.js';
import { runnerOutputExcerpt } from './log-excerpt.js';
import { filesInPatch, sweTestSpec, type SweTestSpec } from './swe-specs.js';
import { NOISE_EXCLUDES, excluding, runnerPathspecs, testPathspecs } from './swe-paths.js';

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
  /** Why a graded test was skipped or expected to fail, where the runner said (a reference run keeps these). */
  skipReasons: Record<string, string>;
  /** pytest's `SKIPPED [N] path:line: reason` lines: skips it counted without naming the tests. */
  skipSummaries: SkipSummary[];
  completed: boolean;
  command: string;
  /** Summary first, then the runner's output (cut to its tail). */
  log: string;
  /** Signs that something other than the runner wrote results (see ParsedLog.tamper), and what the guards found. */
  tamper: string[];
  durationMs: number;
}

/**
 * How a SWE-style task is graded, as one plain value (the role SWE-bench's TestSpec plays): the image, the test
 * command with its environment, setup and log parser (`spec`), which paths are tests and runner files, and how a
 * graded run's report is read (`readContractReport`). `gradeSwe` (swe.ts) is the one grader that takes
 * it, for validation, bare graded runs and an agent's sample alike.
 */
export interface SweContract {
  readonly kind: 'swe';
  readonly task: SweTask;
  /** The image the sandbox starts from. */
  readonly image: string;
  readonly spec: SweTestSpec;
  /** Paths the test patch touches: edits to them are test edits, whatever their names. */
  readonly testFiles: readonly string[];
  /** The git pathspecs the grading scripts sort a tree's changes by (see swe-paths.ts). */
  readonly pathspecs: { runner: string[]; tests: string[]; source: string[]; evidenceTests: string[] };
}

export function sweContract(task: SweTask): SweContract {
  const spec = sweTestSpec(task);
  const testFiles = filesInPatch(task.testPatch);
  const tests = testPathspecs(testFiles, spec.runnerFiles);
  return {
    kind: 'swe',
    task,
    image: taskImage(task),
    spec,
    testFiles,
    pathspecs: {
      runner: runnerPathspecs(spec.runnerFiles),
      tests,
      source: ['.', ...NOISE_EXCLUDES, ...excluding(tests)],
      evidenceTests: [...tests.filter((p) => !p.includes('.egg-info/**')), ...NOISE_EXCLUDES],
    },
  };
}

/** Grades one finished run of the contract's test command as SWE-bench does. */
export function readContractReport(contract: SweContract, run: ExecResult): SweGradeResult {
  return readSweReport(contract.task, contract.spec, run);
}

/** Grades one finished run of the test command (exported for the log's own tests). */
export function readSweReport(task: Pick<SweTask, 'failToPass' | 'passToPass' | 'reference'>, spec: SweTestSpec, run: ExecResult): SweGradeResult {
  const output = `${run.stdout}\n${run.stderr}`;
  const parsed = LOG_PARSERS[spec.parser](output);
  const grade = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, statusOf(parsed.statuses, id) ?? ('MISSING' as const)]));
  const failToPass = grade(task.failToPass);
  const passToPass = grade(task.passToPass);
  const skipReasons = gradedReasons(parsed, [...task.failToPass, ...task.passToPass]);
  const verdict = judgeGradedTests(failToPass, passToPass, task.reference, skipReasons);
  const allPass = verdict.notPassed.length === 0;
  const exitedAsExpected = run.exitCode !== null && spec.completedExitCodes.includes(run.exitCode);
  const disowned = disownedLog(run, parsed, spec.parser);
  const completed = parsed.completed && exitedAsExpected && !disowned;
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
    const bad = verdict.notPassed;
    reason = bad.length
      ? `${bad.length} graded test(s) did not pass: ${bad
          .slice(0, 10)
          .map((t) => `${t.id} ${t.status}${t.why === t.status ? '' : ` (${t.why})`}`)
          .join(', ')}${bad.length > 10 ? ', …' : ''}`
      : (disowned ?? `the runner did not complete (exit code ${run.exitCode}${run.oomKilled ? ', out of memory' : ''})`);
  }
  const summary = [`outcome: ${outcome} (${reason})`, `command: ${spec.command}`, `exit code: ${run.exitCode}`];
  if (run.stdoutCutBytes || run.stderrCutBytes) {
    summary.push(`output cut: ${run.stdoutCutBytes} bytes of stdout and ${run.stderrCutBytes} of stderr dropped from the middle`);
  }
  summary.push(...unnamedSkips(parsed.skipSummaries, [...Object.entries(failToPass), ...Object.entries(passToPass)]));
  // A log its run's exit disowns while it shows every graded test passing is a forged pass, not a broken run.
  const forged = disowned && allPass ? [disowned] : [];
  return {
    outcome,
    resolved: outcome === 'passed',
    exitCode: run.exitCode,
    failToPass,
    passToPass,
    statuses: Object.fromEntries(parsed.statuses),
    skipReasons,
    skipSummaries: parsed.skipSummaries,
    completed,
    command: spec.command,
    log: [
      summary.join('\n'),
      runnerOutputExcerpt(run.stdout.trim(), 16_000),
      run.stderr.trim() ? `stderr:\n${tailText(run.stderr.trim(), 4_000)}` : '',
    ]
      .filter(Boolean)
      .join('\n\n'),
    tamper: [...parsed.tamper, ...verdict.tamper, ...forged],
    durationMs: run.durationMs,
  };
}

/** The reasons the log gives for the graded tests it shows skipped or expected to fail. */
function gradedReasons(parsed: ParsedLog, ids: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const id of ids) {
    const reason = reasonOf(parsed.skipReasons, id);
    if (reason) out[id] = reason;
  }
  return out;
}

/**
 * SWE-bench's spoof rule: a runner that exits non-zero says a test failed or errored, so a finished log showing none
 * at all is not that run's (the code under test printed it). Says why, or undefined when the log may be the run's.
 * Django's runner also fails a run for an unexpected success.
 */
function disownedLog(run: ExecResult, parsed: ParsedLog, parser: LogParserName): string | undefined {
  if (run.exitCode === null || run.exitCode === 0 || run.timedOut || !parsed.completed) return undefined;
  const failing = (s: TestStatus) => s === 'FAILED' || s === 'ERROR' || (parser === 'django' && s === 'XPASS');
  if ([...parsed.statuses.values()].some(failing)) return undefined;
  return `the test command exited ${run.exitCode}, which says a test failed or errored, yet its log shows none: the log is not the run's`;
}

/** For graded tests the log never named, the skips pytest counted in their files without naming the tests. */
function unnamedSkips(summaries: readonly SkipSummary[], graded: [string, TestStatus | 'MISSING'][]): string[] {
  const files = new Set(graded.filter(([, status]) => status === 'MISSING').map(([id]) => id.split('::')[0]));
  return summaries
    .filter((s) => files.has(s.path))
    .map((s) => `skipped without a name in ${s.path}${s.line === undefined ? '' : `:${s.line}`}: ${s.count} test(s), "${s.reason.slice(0, 120)}"`);
}
