import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExecResult } from '../../docker/types.js';
import type { SweReference } from '../task.js';
import { judgeGradedTests } from './graded-tests.js';
import { LOG_PARSERS, LOG_PARSER_NAMES, statusOf, type LogParserName, type TestStatus } from './log-parsers.js';
import { isTruncatedId } from './pytest-lines.js';
import { readSweReport } from './swe-contract.js';
import { sweTestSpec } from './swe-specs.js';

/**
 * SWE-bench's own tests of its Python log parsers and its grading, as a peer suite: each case of theirs
 * (`testing/swebench-cases.json`) runs through our parser and `readSweReport`, and must grade as they do
 * (`agrees`) or stricter where the agent could be at fault (`stricter`, with why). A case that is neither fails.
 */

interface PeerCase {
  origin: string;
  commit: string;
  parser: LogParserName;
  swebenchParser: string;
  log: string;
  /** pytest's closing line we append where SWE-bench's log has none (our parsers want it); absent: nothing added. */
  closing?: string;
  note?: string;
  exitCode: number;
  exitCodeInCase: boolean;
  failToPass: string[];
  passToPass: string[];
  reference?: Record<string, TestStatus>;
  swebench: { statuses: Record<string, TestStatus>; found: boolean; resolved: boolean | null; notPassed: string[] };
  ours: { relation: 'agrees' | 'stricter'; why: string };
}

const CASES_FILE = new URL('./testing/swebench-cases.json', import.meta.url);
const { cases } = JSON.parse(readFileSync(CASES_FILE, 'utf8')) as { cases: PeerCase[] };

function runOf(c: PeerCase): ExecResult {
  const stdout = `${c.log}\n${c.closing ? `${c.closing}\n` : ''}`;
  return { exitCode: c.exitCode, stdout, stderr: '', timedOut: false, oomKilled: false, stdoutCutBytes: 0, stderrCutBytes: 0, durationMs: 1 };
}

/** How we grade a case: resolved or not, the graded tests that did not pass, and every status the log showed. */
function gradeOurs(c: PeerCase) {
  const reference: SweReference | undefined = c.reference ? { statuses: c.reference, skipReasons: {} } : undefined;
  const task = { failToPass: c.failToPass, passToPass: c.passToPass, ...(reference ? { reference } : {}) };
  const spec = { ...sweTestSpec({ repo: 'owner/proj', testPatch: '' }), parser: c.parser };
  const report = readSweReport(task, spec, runOf(c));
  const graded = [...c.failToPass, ...c.passToPass];
  const notPassed = report.completed ? judgeGradedTests(report.failToPass, report.passToPass, reference).notPassed.map((t) => t.id) : graded;
  return { resolved: report.resolved, notPassed, statuses: new Map(Object.entries(report.statuses)) };
}

/** Our parse holds SWE-bench's: each of its ids has its status here, and each of ours is one of its ids or what a cut one of them names. */
function sameParse(theirs: Record<string, TestStatus>, ours: Map<string, TestStatus>): boolean {
  const each = Object.entries(theirs).every(([id, status]) => statusOf(ours, id) === status);
  const noMore = [...ours.keys()].every((id) => id in theirs || Object.keys(theirs).some((t) => isTruncatedId(t) && id.startsWith(t)));
  return each && noMore;
}

function relationOf(c: PeerCase): 'agrees' | 'stricter' | 'neither' {
  const ours = gradeOurs(c);
  const theirs = c.swebench;
  const sameFailures = ours.notPassed.length === theirs.notPassed.length && theirs.notPassed.every((id) => ours.notPassed.includes(id));
  const sameResolution = theirs.resolved === null || ours.resolved === theirs.resolved;
  if (sameResolution && sameFailures && sameParse(theirs.statuses, ours.statuses)) return 'agrees';
  const neverLaxer = !(ours.resolved && theirs.resolved === false) && theirs.notPassed.every((id) => ours.notPassed.includes(id));
  return neverLaxer ? 'stricter' : 'neither';
}

describe("SWE-bench's parser and grading cases, graded by ours", () => {
  it('holds every case there is, each with a why', () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
    for (const c of cases) expect(c.ours.why, c.origin).not.toBe('');
  });

  it.each(cases.map((c) => [`${c.origin} (${c.commit})`, c] as const))('%s', (_, c) => {
    expect(relationOf(c), `${c.ours.relation}: ${c.ours.why}`).toBe(c.ours.relation);
  });

  it('tasks/README.md lists every case where we are stricter', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const name = (c: PeerCase) =>
      c.origin
        .split('::')
        .at(-1)!
        .replace(/\[.*\]$/, '');
    const listed = cases.filter((c) => c.ours.relation === 'stricter' && !readme.includes(name(c)));
    expect(listed.map((c) => c.origin)).toEqual([]);
  });
});

/** A failing test in each parser's own format, with the closing summary its runner prints. */
const FAILING: Record<LogParserName, string> = {
  pytest: 'FAILED t.py::test_a - assert 0\n=== 1 failed in 0.1s ===',
  'pytest-options': 'FAILED t.py::test_a - assert 0\n=== 1 failed in 0.1s ===',
  'pytest-v2': 't.py::test_a FAILED\n=== 1 failed in 0.1s ===',
  matplotlib: 'FAILED t.py::test_a - assert 0\n=== 1 failed in 0.1s ===',
  seaborn: 'FAILED t.py::test_a - assert 0\n=== 1 failed in 0.1s ===',
  django: 'test_a (app.tests.T) ... FAIL\nRan 1 test in 0.01s\n\nFAILED (failures=1)',
  sympy: 'test_a F\n=== tests finished: 0 passed, 1 failed, in 0.1 seconds ===',
};

describe("the spoof rule's premise (SWE-bench's test_every_parser_can_record_a_failure)", () => {
  it.each(LOG_PARSER_NAMES.map((name) => [name]))(
    '%s records a failure, so a non-zero exit with none in the log means the log is not the run’s',
    (name) => {
      const statuses = [...LOG_PARSERS[name](FAILING[name]).statuses.values()];
      expect(statuses.some((s) => s === 'FAILED' || s === 'ERROR')).toBe(true);
    },
  );
});
