/**
 * Per-test statuses from a test runner's log, per repository family, as the SWE-bench harness
 * reads them. A test that does not appear in the log has no status, and grading treats it as
 * failed. Each parser also says whether the run reached its end (the runner's closing summary),
 * so a run cut short is never read as a clean one.
 */

export type TestStatus = 'PASSED' | 'FAILED' | 'ERROR' | 'SKIPPED' | 'XFAIL' | 'XPASS';

export interface ParsedLog {
  statuses: Map<string, TestStatus>;
  /** The runner printed its closing summary. */
  completed: boolean;
}

export type LogParserName = 'pytest' | 'django' | 'sympy';

export type LogParser = (log: string) => ParsedLog;

/** Statuses that count as a pass, as in SWE-bench. */
export function isPassing(status: TestStatus | undefined): boolean {
  return status === 'PASSED' || status === 'XFAIL';
}

/**
 * pytest with `-rA`: the short summary has one `STATUS id[ - message]` line a test.
 * Skipped tests are listed by location there, not by id, so they stay missing (= not passed).
 */
export function parsePytestLog(log: string): ParsedLog {
  const statuses = new Map<string, TestStatus>();
  const line = /^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED) (\S.*?)(?: - .*)?$/;
  let completed = false;
  for (const raw of log.split('\n')) {
    const text = raw.trimEnd();
    const m = line.exec(text);
    if (m && !m[2]!.startsWith('[')) {
      const id = m[2]!.trim();
      // A parametrized id may contain spaces; cut only pytest's own " - reason" suffix.
      statuses.set(id, m[1] as TestStatus);
    }
    // `=== 3 passed in 0.05s ===` (older pytest: `in 0.05 seconds`).
    if (/^=+ .*\bin \d+(\.\d+)?( ?s| seconds)\b.*=+$/.test(text) && !/^=+ short test summary/.test(text)) completed = true;
  }
  return { statuses, completed };
}

/**
 * Django's runner at verbosity 2: `test_y (module.Class) ... ok`, `... FAIL`, `... ERROR`,
 * `... skipped 'why'`, and `FAIL: test_y (module.Class)` headers. Python 3.11+ prints
 * `test_y (module.Class.test_y)`; both forms are recorded.
 */
export function parseDjangoLog(log: string): ParsedLog {
  const statuses = new Map<string, TestStatus>();
  const set = (id: string, status: TestStatus) => {
    for (const form of djangoIdForms(id.trim())) statuses.set(form, status);
  };
  let previous: string | undefined;
  // A test with a docstring prints its id on one line and `docstring ... result` on the next.
  let pendingId: string | undefined;
  const testId = /^\w+ \([\w.]+\)$/;
  let completed = false;
  for (const raw of log.split('\n')) {
    const text = raw.trim();
    if (/^Ran \d+ tests? in /.test(text)) completed = true;
    const sep = text.lastIndexOf(' ... ');
    if (sep > 0) {
      const head = text.slice(0, sep);
      const id = !testId.test(head) && pendingId ? pendingId : head;
      pendingId = undefined;
      const result = text.slice(sep + 5).trim();
      previous = id;
      if (/^ok$/i.test(result)) set(id, 'PASSED');
      else if (result === 'FAIL') set(id, 'FAILED');
      else if (result === 'ERROR') set(id, 'ERROR');
      else if (result.startsWith('skipped')) set(id, 'SKIPPED');
      else if (result === 'expected failure') set(id, 'XFAIL');
      else if (result === 'unexpected success') set(id, 'XPASS');
      continue;
    }
    if (testId.test(text)) {
      pendingId = text;
      continue;
    }
    // A test that logged output between its name and its result.
    if (previous && /^ok$/i.test(text)) {
      set(previous, 'PASSED');
      previous = undefined;
      continue;
    }
    const header = /^(FAIL|ERROR): (.+)$/.exec(text);
    if (header) set(header[2]!, header[1] === 'FAIL' ? 'FAILED' : 'ERROR');
  }
  return { statuses, completed };
}

/** `test_y (a.b.C)` ⇄ `test_y (a.b.C.test_y)`: the two forms unittest has printed. */
export function djangoIdForms(id: string): string[] {
  const m = /^(\w+) \(([\w.]+)\)$/.exec(id);
  if (!m) return [id];
  const [, name, path] = m as unknown as [string, string, string];
  const short = path.endsWith(`.${name}`) ? path.slice(0, -(name.length + 1)) : path;
  return [`${name} (${short})`, `${name} (${short}.${name})`];
}

/** sympy's `bin/test --verbose`: `test_y ok`, `test_y F`, `test_y E`, `test_y f` (expected failure). */
export function parseSympyLog(log: string): ParsedLog {
  const statuses = new Map<string, TestStatus>();
  let completed = false;
  for (const raw of log.split('\n')) {
    const text = raw.trim();
    if (/tests finished:/.test(text)) completed = true;
    const m = /^(test_\w+)\s+(ok|F|E|f|X|s|w|Slow|skipped)$/.exec(text);
    if (!m) continue;
    const status: Record<string, TestStatus> = { ok: 'PASSED', F: 'FAILED', E: 'ERROR', f: 'XFAIL', X: 'XPASS' };
    statuses.set(m[1]!, status[m[2]!] ?? 'SKIPPED');
  }
  return { statuses, completed };
}

export const LOG_PARSERS: Record<LogParserName, LogParser> = {
  pytest: parsePytestLog,
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
