/**
 * Per-test statuses from a test runner's log, one parser per family, reading lines as the SWE-bench
 * harness's parsers do (so the test ids of its datasets are found as it finds them). Stricter than
 * the harness in two ways: only what the runner printed before its closing summary counts (a line
 * printed after it is not the runner's), and each parser says whether that closing summary came at
 * all, so a run cut short is never read as a clean one. A test missing from the log has no status;
 * grading treats it as failed.
 */

export const TEST_STATUSES = ['PASSED', 'FAILED', 'ERROR', 'SKIPPED', 'XFAIL', 'XPASS'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

export interface ParsedLog {
  statuses: Map<string, TestStatus>;
  /** The runner printed its closing summary. */
  completed: boolean;
  /**
   * Signs that something other than the runner wrote results: result lines after its closing summary, or more
   * passes listed than the runner counted in that summary.
   */
  tamper: string[];
}

export const LOG_PARSER_NAMES = ['pytest', 'pytest-options', 'pytest-v2', 'matplotlib', 'seaborn', 'django', 'sympy'] as const;
export type LogParserName = (typeof LOG_PARSER_NAMES)[number];

export type LogParser = (log: string) => ParsedLog;

/** Statuses that count as a pass, as in SWE-bench. */
export function isPassing(status: TestStatus | undefined): boolean {
  return status === 'PASSED' || status === 'XFAIL';
}

const STATUSES: readonly TestStatus[] = TEST_STATUSES;

/** Colour codes, and then every control character, as the harness's pytest_v2 parser drops them. */
function plain(line: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is the point
  return line.replace(/\x1b?\[\d+(;\d+)*m/g, '').replace(/[\x01-\x1f]/g, '');
}

/** pytest's closing line: `=== 1 failed, 3 passed in 0.12s ===` (older: `in 0.12 seconds`). */
const PYTEST_END = /^=+ .*\bin \d+(\.\d+)?( ?s| seconds)\b.*=+$/;

/** The lines before the last one `end` matches, that line itself, and the lines after it. */
function untilEnd(
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
function tally(summary: string, word: string): number {
  const m = new RegExp(`(\\d+) ${word}\\b`).exec(summary);
  return m ? Number(m[1]) : 0;
}

/** The tamper signs of a runner's log: result lines after its closing summary, and more passes listed than counted. */
function tamperSigns(runner: string, after: string[], isResult: (line: string) => boolean, listed: number, counted: number): string[] {
  const out: string[] = [];
  const late = after.filter(isResult);
  if (late.length) out.push(`${late.length} test result line(s) printed after ${runner}'s closing summary, e.g. "${late[0]!.slice(0, 120)}"`);
  if (listed > counted) out.push(`${runner}'s log lists ${listed} passed test(s) where its closing summary counts ${counted}`);
  return out;
}

/**
 * `STATUS id` (with `-rA`). The id is recorded whole, cut before pytest's ` - message`, and also as
 * the harness records it, its first word: the published test ids of parametrized tests with spaces
 * are cut there (`test_x[a b]` is `test_x[a`).
 */
function statusFirst(statuses: Map<string, TestStatus>, line: string, normalize: (id: string) => string = (id) => id): boolean {
  const m = /^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED) (\S.*)$/.exec(line);
  if (!m || m[2]!.startsWith('[')) return false;
  const status = m[1] as TestStatus;
  const whole = m[2]!.replace(/ - .*$/, '').trim();
  const word = m[2]!.split(/\s+/)[0]!;
  if (word !== whole) statuses.set(normalize(word), status);
  statuses.set(normalize(whole), status);
  return true;
}

/** `id STATUS`: pytest's progress lines with `-v` and the classic console style. */
function statusLast(statuses: Map<string, TestStatus>, line: string): boolean {
  const words = line.trim().split(/\s+/);
  const last = words.at(-1) as TestStatus;
  if (words.length < 2 || !STATUSES.includes(last)) return false;
  statuses.set(words[0]!, last);
  return true;
}

const PYTEST_RESULT = /^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED) \S|\S+::\S+ (PASSED|FAILED|ERROR)\b/;

function pytestFamily(clean: (line: string) => string, read: (statuses: Map<string, TestStatus>, line: string) => void): LogParser {
  return (log) => {
    const { lines, completed, summary, after } = untilEnd(log, PYTEST_END, clean);
    const statuses = new Map<string, TestStatus>();
    for (const line of lines) read(statuses, line);
    // With -rA, pytest's short summary lists each pass once: it can list no more than its closing line counts.
    const start = lines.findLastIndex((l) => /^=+ short test summary info =+$/.test(l));
    const listed = start < 0 ? 0 : lines.slice(start + 1).filter((l) => l.startsWith('PASSED ')).length;
    const counted = start < 0 ? Number.POSITIVE_INFINITY : tally(summary, 'passed');
    return { statuses, completed, tamper: tamperSigns('pytest', after, (l) => PYTEST_RESULT.test(l), listed, counted) };
  };
}

/** pytest with `-rA`: the short summary's `STATUS id[ - message]` lines. */
export const parsePytestLog: LogParser = pytestFamily(
  (l) => l.trimEnd(),
  (s, line) => statusFirst(s, line),
);

/**
 * As pytest, with a parametrized id's absolute-path parameter cut to its last part
 * (`test_x[/tmp/abc/f.txt]` is `test_x[/f.txt]`), as the published ids of requests and pylint are.
 */
export const parsePytestOptionsLog: LogParser = pytestFamily(
  (l) => l.trimEnd(),
  (s, line) => statusFirst(s, line, normalizePathParameter),
);

export function normalizePathParameter(id: string): string {
  const m = /^(.*?)\[(.*)\]$/.exec(id);
  if (!m) return id;
  const option = m[2]!;
  if (!option.startsWith('/') || option.startsWith('//') || option.includes('*')) return id;
  return `${m[1]}[/${option.split('/').at(-1)}]`;
}

/** astropy, scikit-learn, sphinx: colours dropped; `STATUS id`, else `id STATUS` (`-vv`, classic style). */
export const parsePytestV2Log: LogParser = pytestFamily(plain, (s, line) => {
  if (!statusFirst(s, line)) statusLast(s, line);
});

/** matplotlib: as pytest, with the mouse buttons of parametrized ids spelled as the published ids spell them. */
export const parseMatplotlibLog: LogParser = pytestFamily(
  (l) => l.trimEnd().replaceAll('MouseButton.LEFT', '1').replaceAll('MouseButton.RIGHT', '3'),
  (s, line) => statusFirst(s, line),
);

/** seaborn: only `FAILED id`, `PASSED id` and `id PASSED`, as the harness reads it. */
export const parseSeabornLog: LogParser = pytestFamily(
  (l) => l.trimEnd(),
  (s, line) => {
    const words = line.split(/\s+/);
    if (line.startsWith('FAILED') && words[1]) s.set(words[1], 'FAILED');
    else if (line.includes(' PASSED ') && words[1] === 'PASSED') s.set(words[0]!, 'PASSED');
    else if (line.startsWith('PASSED') && words[1]) s.set(words[1], 'PASSED');
  },
);

/**
 * Django's runner at verbosity 2: `test_y (module.Class) ... ok`, `... FAIL`, `... ERROR`,
 * `... skipped 'why'`, and `FAIL: test_y (module.Class)` headers. A test with a docstring prints
 * its id on one line and `docstring ... result` on the next: the published ids use the docstring,
 * and the id above it is recorded too. Python 3.11+ prints `test_y (module.Class.test_y)`; both
 * forms are recorded.
 */
export function parseDjangoLog(log: string): ParsedLog {
  const { lines, completed, summary, after } = untilEnd(log, /^Ran \d+ tests? in /, (l) => l.trim());
  const statuses = new Map<string, TestStatus>();
  const set = (id: string | undefined, status: TestStatus) => {
    if (id) for (const form of djangoIdForms(id.trim())) statuses.set(form, status);
  };
  const unittestId = /^\w+ \([\w.]+\)$/;
  let previous: string | undefined;
  let idAbove: string | undefined;
  for (const text of lines) {
    if (text.includes('--version is equivalent to version')) set('--version is equivalent to version', 'PASSED');
    const sep = text.lastIndexOf(' ... ');
    if (sep > 0) {
      const head = text.slice(0, sep);
      const withId = unittestId.test(head) ? undefined : idAbove;
      idAbove = undefined;
      previous = head;
      const result = text.slice(sep + 5).trim();
      const status: TestStatus | undefined = /^ok$/i.test(result)
        ? 'PASSED'
        : result === 'FAIL'
          ? 'FAILED'
          : result === 'ERROR'
            ? 'ERROR'
            : result.startsWith('skipped')
              ? 'SKIPPED'
              : result === 'expected failure'
                ? 'XFAIL'
                : result === 'unexpected success'
                  ? 'XPASS'
                  : undefined;
      if (status) {
        set(head, status);
        set(withId, status);
        previous = undefined;
      } else if (withId) previous = `${head}\u0000${withId}`;
      continue;
    }
    if (unittestId.test(text)) {
      idAbove = text;
      continue;
    }
    // A test that logged output between its name and its result.
    if (previous && /^ok$/i.test(text)) {
      for (const id of previous.split('\u0000')) set(id, 'PASSED');
      previous = undefined;
      continue;
    }
    const header = /^(FAIL|ERROR): (.+)$/.exec(text);
    if (header) set(header[2]!, header[1] === 'FAIL' ? 'FAILED' : 'ERROR');
  }
  // Results printed after a log message that ends the name's line (the harness's three cases).
  for (const re of [
    /^(.*?)\s\.\.\.\sTesting against Django installed in ((?:.|\n)*?) silenced\)\.\nok$/gm,
    /^(.*?)\s\.\.\.\sInternal Server Error: \/(.*)\/\nok$/gm,
    /^(.*?)\s\.\.\.\sSystem check identified no issues \(0 silenced\)\nok$/gm,
  ]) {
    for (const m of lines.join('\n').matchAll(re)) set(m[1], 'PASSED');
  }
  const results = lines.filter((l) => / \.\.\. (ok|FAIL|ERROR)$/i.test(l)).length;
  const ran = completed ? Number(/^Ran (\d+)/.exec(summary)![1]) : Number.POSITIVE_INFINITY;
  const tamper = tamperSigns('the unittest runner', after, (l) => / \.\.\. (ok|FAIL|ERROR)$/i.test(l), results, ran);
  return { statuses, completed, tamper };
}

/** `test_y (a.b.C)` ⇄ `test_y (a.b.C.test_y)`: the two forms unittest has printed. */
export function djangoIdForms(id: string): string[] {
  const m = /^(\w+) \(([\w.]+)\)$/.exec(id);
  if (!m) return [id];
  const [, name, path] = m as unknown as [string, string, string];
  const short = path.endsWith(`.${name}`) ? path.slice(0, -(name.length + 1)) : path;
  return [`${name} (${short})`, `${name} (${short}.${name})`];
}

/**
 * sympy's `bin/test --verbose`: `test_y ok`, `test_y F`, `test_y E`, `test_y f` (expected
 * failure), with the file's `[OK]`/`[FAIL]` after its last test; and `___ path.py:test_y ___`
 * headers of failures, recorded under that name as the harness does.
 */
export function parseSympyLog(log: string): ParsedLog {
  const { lines, completed, summary, after } = untilEnd(log, /tests finished:/, (l) => l.trim());
  const statuses = new Map<string, TestStatus>();
  const codes: Record<string, TestStatus> = { ok: 'PASSED', F: 'FAILED', E: 'ERROR', f: 'XFAIL', X: 'XPASS' };
  for (const raw of lines) {
    const header = /^_+ (.*\.py:\S+) _+$/.exec(raw);
    if (header) {
      statuses.set(header[1]!, 'FAILED');
      continue;
    }
    const text = raw.replace(/\s*\[(OK|FAIL)\]$/, '');
    const m = /^(test_\w+)\s+(ok|F|E|f|X|s|w|Slow|skipped)$/.exec(text);
    if (m) statuses.set(m[1]!, codes[m[2]!] ?? 'SKIPPED');
  }
  const oks = lines.filter((l) => /^test_\w+\s+ok(\s*\[(OK|FAIL)\])?$/.test(l)).length;
  const tamper = tamperSigns(
    'sympy',
    after,
    (l) => /^test_\w+\s+(ok|F|E)\b/.test(l),
    oks,
    completed ? tally(summary, 'passed') : Number.POSITIVE_INFINITY,
  );
  return { statuses, completed, tamper };
}

export const LOG_PARSERS: Record<LogParserName, LogParser> = {
  pytest: parsePytestLog,
  'pytest-options': parsePytestOptionsLog,
  'pytest-v2': parsePytestV2Log,
  matplotlib: parseMatplotlibLog,
  seaborn: parseSeabornLog,
  django: parseDjangoLog,
  sympy: parseSympyLog,
};

/** Looks a test id up, trying the other forms a runner may print it in. */
export function statusOf(statuses: Map<string, TestStatus>, id: string): TestStatus | undefined {
  for (const form of djangoIdForms(id)) {
    const status = statuses.get(form);
    if (status) return status;
  }
  return undefined;
}
