/**
 * What every log parser shares: the statuses a runner reports, what a parsed log holds, and how the part of a log the
 * runner wrote is told from what came after its closing summary.
 */

export const TEST_STATUSES = ['PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

/** pytest's `SKIPPED [N] path:line: reason`: N tests skipped at one place, the tests themselves unnamed. */
export interface SkipSummary {
  path: string;
  /** The line the skip was raised or declared at; undefined where pytest printed none. */
  line: number | undefined;
  count: number;
  reason: string;
}

export interface ParsedLog {
  statuses: Map<string, TestStatus>;
  /** Why a test was skipped or expected to fail, where the runner printed a reason with its id. */
  skipReasons: Map<string, string>;
  /** pytest's skip summary lines: they name no test, but say why tests of a file did not run. */
  skipSummaries: SkipSummary[];
  /** The runner printed its closing summary. */
  completed: boolean;
  /**
   * Signs that something other than the runner wrote results: result lines after its closing summary, or more
   * passes listed than the runner counted in that summary.
   */
  tamper: string[];
}

export type LogParser = (log: string) => ParsedLog;

/** Statuses that count as a pass, as in SWE-bench. */
export function isPassing(status: TestStatus | undefined): boolean {
  return status === 'PASSED' || status === 'XFAIL';
}

/** How bad a status is, for an id reported twice (a passed test whose teardown errored is listed PASSED and ERROR). */
const BADNESS: Record<TestStatus, number> = { PASSED: 0, XFAIL: 1, SKIPPED: 2, XPASS: 3, ERROR: 4, FAILED: 5 };

/** The worse of two statuses of one test: a second report of a test never makes it better. */
export function worse(a: TestStatus | undefined, b: TestStatus): TestStatus {
  return a !== undefined && BADNESS[a] > BADNESS[b] ? a : b;
}

/** The worst of several statuses. */
export function worst(statuses: readonly TestStatus[]): TestStatus | undefined {
  let out: TestStatus | undefined;
  for (const s of statuses) out = worse(out, s);
  return out;
}

/** The lines before the last one `end` matches, that line itself, and the lines after it. */
export function untilEnd(
  log: string,
  end: RegExp,
  clean: (line: string) => string = (l) => l.trimEnd(),
): { lines: string[]; completed: boolean; summary: string; after: string[] } {
  const lines = log.split('\n').map(clean);
  const last = lines.findLastIndex((l) => end.test(l));
  if (last < 0) return { lines, completed: false, summary: '', after: [] };
  return { lines: lines.slice(0, last), completed: true, summary: lines[last]!, after: lines.slice(last + 1) };
}

/** The count a closing summary gives for a word (`3 passed` → 3), 0 when it names none. */
export function tally(summary: string, word: string): number {
  const m = new RegExp(`(\\d+) ${word}\\b`).exec(summary);
  return m ? Number(m[1]) : 0;
}

/** The tamper signs of a runner's log: result lines after its closing summary, and more passes listed than counted. */
export function tamperSigns(runner: string, after: string[], isResult: (line: string) => boolean, listed: number, counted: number): string[] {
  const out: string[] = [];
  const late = after.filter(isResult);
  if (late.length) out.push(`${late.length} test result line(s) printed after ${runner}'s closing summary, e.g. "${late[0]!.slice(0, 120)}"`);
  if (listed > counted) out.push(`${runner}'s log lists ${listed} passed test(s) where its closing summary counts ${counted}`);
  return out;
}
