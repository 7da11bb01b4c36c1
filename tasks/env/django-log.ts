import { tamperSigns, untilEnd, type ParsedLog, type TestStatus } from './runner-log.js';

/** A unittest result word at verbosity 2 (`ok`, `FAIL`, `skipped 'why'`, ...), with the reason a skip gives. */
function unittestResult(result: string): { status: TestStatus; reason?: string } | undefined {
  if (/^ok$/i.test(result)) return { status: 'PASSED' };
  if (result === 'FAIL') return { status: 'FAILED' };
  if (result === 'ERROR') return { status: 'ERROR' };
  if (result === 'expected failure') return { status: 'XFAIL' };
  if (result === 'unexpected success') return { status: 'XPASS' };
  if (!result.startsWith('skipped')) return undefined;
  // unittest prints the reason's repr: 'why', or "why's" when it holds a single quote.
  const quoted = /^skipped (['"])(.*)\1$/.exec(result);
  const reason = quoted ? quoted[2]! : result.slice('skipped'.length).trim();
  return reason ? { status: 'SKIPPED', reason } : { status: 'SKIPPED' };
}

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
  const skipReasons = new Map<string, string>();
  const set = (id: string | undefined, status: TestStatus, reason?: string) => {
    if (!id) return;
    for (const form of djangoIdForms(id.trim())) {
      statuses.set(form, status);
      if (reason) skipReasons.set(form, reason);
    }
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
      const result = unittestResult(text.slice(sep + 5).trim());
      if (result) {
        set(head, result.status, result.reason);
        set(withId, result.status, result.reason);
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
  return { statuses, skipReasons, skipSummaries: [], completed, tamper };
}

/** `test_y (a.b.C)` ⇄ `test_y (a.b.C.test_y)`: the two forms unittest has printed. */
export function djangoIdForms(id: string): string[] {
  const m = /^(\w+) \(([\w.]+)\)$/.exec(id);
  if (!m) return [id];
  const [, name, path] = m as unknown as [string, string, string];
  const short = path.endsWith(`.${name}`) ? path.slice(0, -(name.length + 1)) : path;
  return [`${name} (${short})`, `${name} (${short}.${name})`];
}
