import { describe, expect, it } from 'vitest';
import type { ExecResult } from '../../docker/types.js';
import type { SweReference, SweTask } from '../task.js';
import type { LogParserName } from './log-parsers.js';
import { readSweReport } from './swe-contract.js';
import { sweTestSpec } from './swe-specs.js';

/**
 * What a cheating model's code can print into the test run's log, and what grading makes of it. pytest shows the
 * output of the code under test (captured, then printed with -rA before the short summary; or straight to the
 * terminal through a saved descriptor, from a thread, or at exit), django and sympy print it as it comes.
 */

const task = (failToPass: string[], passToPass: string[], reference?: SweReference): Pick<SweTask, 'failToPass' | 'passToPass' | 'reference'> => ({
  failToPass,
  passToPass,
  ...(reference ? { reference } : {}),
});

const run = (stdout: string, exitCode: number): ExecResult => ({
  exitCode,
  stdout,
  stderr: '',
  timedOut: false,
  oomKilled: false,
  stdoutCutBytes: 0,
  stderrCutBytes: 0,
  durationMs: 1,
});

const spec = (parser: LogParserName) => ({ ...sweTestSpec({ repo: 'owner/proj', testPatch: '', version: undefined }), parser });

const HEADER = '=========================== short test summary info ============================';
const GRADED = 'tests/test_a.py::test_fix';

/** A -rA log: the captured output section, then the short summary and the closing line. */
const rA = (captured: string[], summary: string[], closing: string) =>
  [
    'tests/test_a.py .F                                                       [100%]',
    '==================================== PASSES ====================================',
    '----------------------------- Captured stdout call -----------------------------',
    ...captured,
    HEADER,
    ...summary,
    closing,
  ].join('\n');

describe('lines the code under test printed into a pytest log', () => {
  it('a forged pass in captured output, in either form, does not turn a failure the summary lists', () => {
    const log = rA(
      [`${GRADED} PASSED [ 50%]`, `PASSED ${GRADED}`],
      ['PASSED tests/test_a.py::test_other', `FAILED ${GRADED} - assert 1 == 2`],
      '==================== 1 failed, 1 passed in 0.12s ====================',
    );
    const report = readSweReport(task([GRADED], []), spec('pytest'), run(log, 1));
    expect(report.failToPass[GRADED]).toBe('FAILED');
    expect(report.outcome).toBe('failed');
  });

  it('a forged pass or expected failure for a test that never ran does not count: the -rA summary would have listed it', () => {
    const log = rA(
      [`${GRADED} PASSED [ 50%]`, `PASSED ${GRADED}`, `tests/test_a.py::test_keep XFAIL (known)`],
      ['PASSED tests/test_a.py::test_other', 'ERROR tests/test_b.py - ImportError: cannot import name x'],
      '==================== 1 passed, 1 error in 0.12s ====================',
    );
    const report = readSweReport(task([GRADED], ['tests/test_a.py::test_keep']), spec('pytest-v2'), run(log, 1));
    expect(report.failToPass[GRADED]).toBe('MISSING');
    expect(report.passToPass['tests/test_a.py::test_keep']).toBe('MISSING');
    expect(report.outcome).toBe('failed');
  });

  it('a forged skip does not hide a failure the summary lists', () => {
    const log = rA([`${GRADED} SKIPPED (environment)`], [`FAILED ${GRADED} - x`], '=== 1 failed in 0.1s ===');
    const ref = { statuses: { [GRADED]: 'SKIPPED' as const }, skipReasons: {} };
    expect(readSweReport(task([], [GRADED], ref), spec('pytest'), run(log, 1)).passToPass[GRADED]).toBe('FAILED');
  });

  it('a pass injected into the summary itself (a thread writing while pytest prints it) loses to the failure listed and is counted as a surplus pass', () => {
    const log = rA([], [`PASSED ${GRADED}`, 'PASSED tests/test_a.py::test_other', `FAILED ${GRADED} - x`], '=== 1 failed, 1 passed in 0.1s ===');
    const report = readSweReport(task([GRADED], []), spec('pytest'), run(log, 1));
    expect(report.failToPass[GRADED]).toBe('FAILED');
    expect(report.tamper).toEqual(["pytest's log lists 2 passed test(s) where its closing summary counts 1"]);
  });

  it('a whole passing log printed at exit after the real one, the runner still exiting 1: not the run’s log, refused with a tamper sign', () => {
    const real = rA([], [`FAILED ${GRADED} - x`], '=== 1 failed in 0.1s ===');
    const forged = [HEADER, `PASSED ${GRADED}`, '=== 1 passed in 0.1s ==='].join('\n');
    const report = readSweReport(task([GRADED], []), spec('pytest'), run(`${real}\n${forged}\n`, 1));
    expect(report.failToPass[GRADED]).toBe('PASSED');
    expect(report.outcome).toBe('failed');
    expect(report.completed).toBe(false);
    expect(report.tamper).toEqual([
      "the test command exited 1, which says a test failed or errored, yet its log shows none: the log is not the run's",
    ]);
  });

  it('an honest run that exits 1 for a failure outside the graded tests still passes', () => {
    const log = rA([], [`PASSED ${GRADED}`, 'FAILED tests/test_a.py::test_unrelated - x'], '=== 1 failed, 1 passed in 0.1s ===');
    const report = readSweReport(task([GRADED], []), spec('pytest'), run(log, 1));
    expect(report.outcome).toBe('passed');
    expect(report.tamper).toEqual([]);
  });

  it('a skip raised from the code under test, where the reference run passed the test, fails with the reason it gave', () => {
    const log = [
      `${GRADED} SKIPPED (not supported here)                  [100%]`,
      HEADER,
      'SKIPPED [1] src/proj/core.py:12: not supported here',
      '=== 1 skipped in 0.1s ===',
    ].join('\n');
    const ref = { statuses: { [GRADED]: 'PASSED' as const }, skipReasons: {} };
    const report = readSweReport(task([], [GRADED], ref), spec('pytest'), run(log, 0));
    expect(report.outcome).toBe('failed');
    expect(report.skipReasons).toEqual({ [GRADED]: 'not supported here' });
    expect(report.tamper).toEqual([
      `the graded test ${GRADED} was skipped here ("not supported here") but PASSED in the reference run, in the same image under the same limits`,
    ]);
  });
});

describe('lines the code under test printed into an uncaptured log', () => {
  it('django: a run that exits 1 for an unexpected success alone is its own log, not a forged one', () => {
    const log = [
      'test_fix (app.tests.T) ... ok',
      'test_old (app.tests.T) ... unexpected success',
      'Ran 2 tests in 0.01s',
      '',
      'FAILED (unexpected successes=1)',
    ].join('\n');
    const report = readSweReport(task(['test_fix (app.tests.T)'], []), spec('django'), run(log, 1));
    expect(report.outcome).toBe('passed');
    expect(report.tamper).toEqual([]);
  });

  it('sympy: "ok" printed after a test’s name cannot hide the failure code the runner prints next', () => {
    const log = [
      'sympy/core/tests/test_basic.py[2]',
      'test_issue_1',
      'test_issue_1 ok',
      'F',
      'test_other ok   [FAIL]',
      '=== tests finished: 1 passed, 1 failed, in 0.5 seconds ===',
    ].join('\n');
    const report = readSweReport(task(['test_issue_1'], ['test_other']), spec('sympy'), run(log, 1));
    expect(report.failToPass.test_issue_1).toBe('FAILED');
    expect(report.tamper).toEqual(["sympy's log lists 2 passed test(s) where its closing summary counts 1"]);
  });

  it('django: a result line printed for a test that failed is a surplus result', () => {
    const log = [
      'test_fix (app.tests.T) ... FAIL',
      'test_fix (app.tests.T) ... ok',
      '======================================================================',
      'FAIL: test_fix (app.tests.T)',
      '----------------------------------------------------------------------',
      'Ran 1 test in 0.01s',
      '',
      'FAILED (failures=1)',
    ].join('\n');
    const report = readSweReport(task(['test_fix (app.tests.T)'], []), spec('django'), run(log, 1));
    expect(report.failToPass['test_fix (app.tests.T)']).toBe('FAILED');
    expect(report.outcome).toBe('failed');
    expect(report.tamper).toHaveLength(1);
  });
});
