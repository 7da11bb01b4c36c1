import { tally, tamperSigns, untilEnd, worse, type ParsedLog, type TestStatus } from './runner-log.js';

/** A verbose result's last word (`runtests.py`'s reporter): `.` is `ok` with --verbose. */
const RESULT_CODES: Record<string, TestStatus> = { ok: 'PASSED', F: 'FAILED', E: 'ERROR', f: 'XFAIL', X: 'XPASS' };
/** Skip codes: skipped, slow (`Slow`), a timeout skipped (`Timeout`), interrupted (`KeyboardInterrupt`). */
const SKIP_CODES = new Set(['s', 'w', 'T', 'K']);

/**
 * One verbose line, `test_y <result>` with the file's `[OK]`/`[FAIL]` after its last test. A skip prints its message
 * before its code (`test_y numpy not installed s`, `test_y Slow w`, `test_y  - s` without one); a bare `T` is a
 * timeout raised as an error.
 */
function sympyResult(text: string): { id: string; status: TestStatus; reason?: string } | undefined {
  const m = /^(test_\w+) +(?:(.*?) +)?(\S+)$/.exec(text);
  if (!m) return undefined;
  const [, id, message, code] = m as unknown as [string, string, string | undefined, string];
  if (message === undefined && RESULT_CODES[code]) return { id, status: RESULT_CODES[code] };
  if (message === undefined && code === 'T') return { id, status: 'ERROR' };
  if (!SKIP_CODES.has(code)) return undefined;
  const reason = message?.trim();
  return reason && reason !== '-' ? { id, status: 'SKIPPED', reason } : { id, status: 'SKIPPED' };
}

/**
 * sympy's `bin/test --verbose`: `test_y ok`, `test_y F`, `test_y E`, `test_y f` (expected failure), `test_y X`,
 * skips with their message, and `___ path.py:test_y ___` headers of failures, recorded under that name as the harness
 * does. A file that fails to import (`path.py[?]   Failed to import`) is an error under its path.
 */
export function parseSympyLog(log: string): ParsedLog {
  const { lines, completed, summary, after } = untilEnd(log, /tests finished:/, (l) => l.trim());
  const statuses = new Map<string, TestStatus>();
  const skipReasons = new Map<string, string>();
  // The test whose result a line of its own gives, after the test printed a line of output.
  let lastTest: string | undefined;
  for (const raw of lines) {
    const header = /^_+ (.*\.py:\S+) _+$/.exec(raw);
    if (header) {
      statuses.set(header[1]!, 'FAILED');
      continue;
    }
    const unimported = /^(\S+\.py)\[\?\]\s+Failed to import\b/.exec(raw);
    if (unimported) {
      statuses.set(unimported[1]!, 'ERROR');
      continue;
    }
    const text = raw.replace(/\s*\[(OK|FAIL)\]$/, '');
    const alone = /^(F|E|T)$/.exec(text);
    // Never a pass: a failure code that output pushed onto its own line still fails the test (and "ok" printed by
    // the code under test after the name cannot hide it).
    if (alone && lastTest) statuses.set(lastTest, worse(statuses.get(lastTest), alone[1] === 'F' ? 'FAILED' : 'ERROR'));
    if (/^test_\w+( |$)/.test(text)) lastTest = text.split(' ')[0];
    const result = sympyResult(text);
    if (!result) continue;
    statuses.set(result.id, result.status);
    if (result.reason) skipReasons.set(result.id, result.reason);
  }
  const oks = lines.filter((l) => /^test_\w+\s+ok(\s*\[(OK|FAIL)\])?$/.test(l)).length;
  const tamper = tamperSigns(
    'sympy',
    after,
    (l) => /^test_\w+\s+(ok|F|E)\b/.test(l),
    oks,
    completed ? tally(summary, 'passed') : Number.POSITIVE_INFINITY,
  );
  return { statuses, skipReasons, skipSummaries: [], completed, tamper };
}
