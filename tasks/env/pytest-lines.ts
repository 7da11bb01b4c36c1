import type { SkipSummary, TestStatus } from './runner-log.js';

/**
 * How one line of a pytest log reads as a test result, in each form pytest prints one: `STATUS id[ - message]` (the
 * `-rA` short summary) and `id STATUS[ more]` (the progress lines of `-v`, and the classic console style).
 */

export interface PytestResult {
  id: string;
  status: TestStatus;
  /** Why it was skipped or expected to fail, where the line says. */
  reason?: string;
  /** `STATUS id` (a short-summary line) or `id STATUS` (a progress line). */
  form: 'status-first' | 'id-first';
}

/** A parametrized id's brackets are closed: `test_x[a b]` is, `test_x[a` (cut at its space) is not. */
export function bracketsClosed(text: string): boolean {
  return count(text, '[') <= count(text, ']');
}

/** A graded id cut inside its parameters (`test_x[log(photon`): it names every test whose id it begins. */
export function isTruncatedId(id: string): boolean {
  return !bracketsClosed(id);
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

/**
 * The test id a text begins with: its words up to the first point where the brackets are closed (pytest puts spaces
 * only inside a parametrized id's brackets), and what follows. With brackets that never close, the text up to ` - `.
 */
export function leadingId(text: string): { id: string; rest: string } {
  const closed = closedPrefix(text);
  if (closed !== undefined) return { id: closed, rest: text.slice(closed.length).trim() };
  const cut = text.indexOf(' - ');
  return { id: (cut < 0 ? text : text.slice(0, cut)).trim(), rest: cut < 0 ? '' : text.slice(cut).trim() };
}

/** `SKIPPED [N] path:line: reason` (`SKIP` before pytest 3.?): a count of skips at one place, not a test. */
export function readSkipSummary(line: string): SkipSummary | undefined {
  const m = /^SKIP(?:PED)? \[(\d+)\] (\S+?)(?::(\d+))?: (.*)$/.exec(line);
  if (!m) return undefined;
  return { path: m[2]!, line: m[3] === undefined ? undefined : Number(m[3]), count: Number(m[1]), reason: m[4]! };
}

/** A progress percentage standing where an id should (`PASSED [100%]` of a wrapped progress line). */
export function isProgressPercent(id: string): boolean {
  return /^\[\s*\d+%\]$/.test(id);
}

/**
 * `STATUS id[ - message]`. A PASSED line is nothing but its id; other statuses may follow theirs with a message
 * (` - AssertionError: ...`, ` - reason`, or, for XPASS, the reason alone). `SKIPPED [N] ...` is a skip summary.
 */
export function statusFirst(line: string): PytestResult | undefined {
  const m = /^(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED) +(\S.*)$/.exec(line);
  if (!m) return undefined;
  const status = m[1] as TestStatus;
  const text = m[2]!;
  if (status === 'SKIPPED' && /^\[\d+\](\s|$)/.test(text)) return undefined;
  if (status === 'PASSED') return { id: text.trim(), status, form: 'status-first' };
  const { id, rest } = leadingId(text);
  const reason = rest.replace(/^- /, '').trim();
  return { id, status, form: 'status-first', ...(reason && (status === 'SKIPPED' || status === 'XFAIL') ? { reason } : {}) };
}

/**
 * `id STATUS[ more]`, as SWE-bench reads it (`^(\S+)\s+(STATUS)(\s|$)`), the id taking in the spaces inside its
 * brackets. What follows the status may give the reason: `(reason) [ 50%]` (pytest 7+, cut to the terminal's width)
 * or `[1] reason`.
 */
export function idFirst(line: string): PytestResult | undefined {
  if (!/^\S/.test(line)) return undefined;
  const id = closedPrefix(line);
  // A section rule (`____ ERROR at teardown of test_x ____`) names no test.
  if (id === undefined || /^[_=-]+$/.test(id)) return undefined;
  const m = /^\s+(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)(?:\s+(.*))?$/.exec(line.slice(id.length));
  if (!m) return undefined;
  const status = m[1] as TestStatus;
  const reason = progressReason((m[2] ?? '').trim());
  return { id, status, form: 'id-first', ...(reason && (status === 'SKIPPED' || status === 'XFAIL') ? { reason } : {}) };
}

/** A text's words up to the first point where its brackets are closed; undefined when they never are. */
function closedPrefix(text: string): string | undefined {
  for (const word of text.matchAll(/\S+/g)) {
    const end = word.index + word[0].length;
    if (bracketsClosed(text.slice(0, end))) return text.slice(0, end);
  }
  return undefined;
}

/** The reason after a progress line's status: `(reason) [ 50%]`, `(reason)`, or `[1] reason`. */
function progressReason(after: string): string | undefined {
  const bracketed = /^\((.*)\)(?:\s+\[\s*\d+%\])?$/.exec(after);
  if (bracketed) return bracketed[1]!.trim() || undefined;
  const counted = /^\[\d+\]\s+(.+)$/.exec(after);
  return counted ? counted[1]!.trim() : undefined;
}

/**
 * A reason pytest cut to fit the terminal (`Need 2...`), or left out, completed from the skip summaries of the test's
 * file where they agree on one reason that begins so.
 */
export function completeReason(id: string, reason: string | undefined, summaries: readonly SkipSummary[]): string | undefined {
  const shown = reason?.endsWith('...') ? reason.slice(0, -3) : reason;
  if (shown !== undefined && shown === reason) return reason;
  const file = id.split('::')[0];
  const full = new Set(summaries.filter((s) => s.path === file && s.reason.startsWith(shown ?? '')).map((s) => s.reason));
  return full.size === 1 ? [...full][0] : reason;
}
