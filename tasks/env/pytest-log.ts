import { completeReason, idFirst, isProgressPercent, readSkipSummary, statusFirst, type PytestResult } from './pytest-lines.js';
import { tally, tamperSigns, untilEnd, worse, type LogParser, type ParsedLog, type SkipSummary, type TestStatus } from './runner-log.js';

/**
 * The pytest family of log parsers (pytest, pytest-options, pytest-v2, matplotlib, seaborn), reading each result line
 * as SWE-bench's do, in both forms (`STATUS id` and `id STATUS`), with two defences where the code under test may have
 * printed lines of its own (captured output is shown before the short summary):
 * - a test the `-rA` short summary lists takes its status from there (the worse, if listed twice), whatever other
 *   lines say;
 * - in a log whose short summary lists passes, a pass (PASSED, XFAIL, XPASS) seen only outside it is no pass: pytest
 *   would have listed it. Skips count from progress lines, the only place pytest names a skipped test.
 */

/** pytest's closing line: `=== 1 failed, 3 passed in 0.12s ===` (older: `in 0.12 seconds`). */
const PYTEST_END = /^=+ .*\bin \d+(\.\d+)?( ?s| seconds)\b.*=+$/;
const SUMMARY_HEADER = /^=+ short test summary info =+$/;
/** A result line printed after the closing summary: a tamper sign. */
const PYTEST_RESULT = /^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED) \S|\S+::\S+ (PASSED|FAILED|ERROR)\b/;
const PASS_LIKE: ReadonlySet<TestStatus> = new Set(['PASSED', 'XFAIL', 'XPASS']);

interface PytestOptions {
  /** What a raw line becomes before it is read (colours dropped, names spelled as the published ids spell them). */
  clean?: (line: string) => string;
  /** What a read id becomes (the published ids of some repositories shorten path parameters). */
  normalize?: (id: string) => string;
  /** Statuses this parser does not read, as the harness's parser for the repository does not. */
  unread?: readonly TestStatus[];
}

function pytestFamily(options: PytestOptions = {}): LogParser {
  return (log) => readPytestLog(log, options);
}

function readPytestLog(log: string, { clean = (l) => l.trimEnd(), normalize = (id) => id, unread = [] }: PytestOptions): ParsedLog {
  const { lines, completed, summary, after } = untilEnd(log, PYTEST_END, clean);
  const start = lines.findLastIndex((l) => SUMMARY_HEADER.test(l));
  const summaryLines = start < 0 ? [] : lines.slice(start + 1);
  const listed = summaryLines.filter((l) => l.startsWith('PASSED ')).length;
  // -rA lists every pass; the default -rfE lists only failures and errors, and then progress lines are all there is.
  const listsPasses = start >= 0 && (listed > 0 || tally(summary, 'passed') === 0);
  const summaryStatuses = new Map<string, TestStatus>();
  const otherStatuses = new Map<string, TestStatus>();
  const reasons = new Map<string, string>();
  const skipSummaries: SkipSummary[] = [];
  lines.forEach((line, i) => {
    const inSummary = start >= 0 && i > start;
    const skip = readSkipSummary(line);
    if (skip) {
      if (start < 0 || inSummary) skipSummaries.push(skip);
      return;
    }
    const read: PytestResult | undefined = statusFirst(line) ?? idFirst(line);
    if (!read || unread.includes(read.status)) return;
    const id = normalize(read.id);
    const into = inSummary && read.form === 'status-first' ? summaryStatuses : otherStatuses;
    into.set(id, worse(into.get(id), read.status));
    if (read.reason) reasons.set(id, read.reason);
  });
  const statuses = new Map<string, TestStatus>();
  for (const [id, status] of otherStatuses) {
    if (summaryStatuses.has(id)) continue;
    if (listsPasses && PASS_LIKE.has(status) && !isProgressPercent(id)) continue;
    statuses.set(id, status);
  }
  for (const [id, status] of summaryStatuses) statuses.set(id, status);
  const skipReasons = new Map<string, string>();
  for (const [id, status] of statuses) {
    if (status !== 'SKIPPED' && status !== 'XFAIL') continue;
    const reason = completeReason(id, reasons.get(id), status === 'SKIPPED' ? skipSummaries : []);
    if (reason) skipReasons.set(id, reason);
  }
  const counted = start < 0 ? Number.POSITIVE_INFINITY : tally(summary, 'passed');
  return { statuses, skipReasons, skipSummaries, completed, tamper: tamperSigns('pytest', after, (l) => PYTEST_RESULT.test(l), listed, counted) };
}

/** Colour codes, and then every control character, as the harness's pytest_v2 parser drops them. */
function plain(line: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is the point
  return line.replace(/\x1b?\[\d+(;\d+)*m/g, '').replace(/[\x01-\x1f]/g, '');
}

/** pytest with `-rA`: flask, pytest, xarray, astroid, sqlfluff and the others the harness reads as plain pytest. */
export const parsePytestLog: LogParser = pytestFamily();

/**
 * As pytest, with a parametrized id's absolute-path parameter cut to its last part
 * (`test_x[/tmp/abc/f.txt]` is `test_x[/f.txt]`), as the published ids of requests and pylint are.
 */
export const parsePytestOptionsLog: LogParser = pytestFamily({ normalize: normalizePathParameter });

export function normalizePathParameter(id: string): string {
  const m = /^(.*?)\[(.*)\]$/.exec(id);
  if (!m) return id;
  const option = m[2]!;
  if (!option.startsWith('/') || option.startsWith('//') || option.includes('*')) return id;
  return `${m[1]}[/${option.split('/').at(-1)}]`;
}

/** astropy, scikit-learn, sphinx: colours and control characters dropped first (`-vv`, the classic console style). */
export const parsePytestV2Log: LogParser = pytestFamily({ clean: plain });

/** matplotlib: as pytest, with the mouse buttons of parametrized ids spelled as the published ids spell them. */
export const parseMatplotlibLog: LogParser = pytestFamily({
  clean: (l) => l.trimEnd().replaceAll('MouseButton.LEFT', '1').replaceAll('MouseButton.RIGHT', '3'),
});

/**
 * seaborn: as pytest, but no expected failure is read. The harness's seaborn parser reads only passes and failures,
 * so there an expected failure is missing and fails. An error fails there as here; a skip, missing there, counts here
 * only where the reference run skipped the test too.
 */
export const parseSeabornLog: LogParser = pytestFamily({ unread: ['XFAIL'] });
