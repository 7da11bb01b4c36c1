import { describe, expect, it } from 'vitest';
import type { ExecResult } from '../../docker/types.js';
import type { SweReference } from '../task.js';
import type { TestStatus } from './log-parsers.js';
import { readSweReport } from './swe-contract.js';
import { sweTestSpec } from './swe-specs.js';

/**
 * SWE-bench's pylint-dev__pylint-6528 on one core (its test_pylint_6528_single_core_skips_do_not_cause_false_regression):
 * four PASS_TO_PASS tests need two cores and skip. Graded with pylint's parser (pytest-options) against the reference
 * run, which under the same limits skips them too, or does not.
 */

const FAIL_TO_PASS = [
  'tests/lint/unittest_lint.py::test_recursive_ignore[--ignore-ignored_subdirectory]',
  'tests/lint/unittest_lint.py::test_recursive_ignore[--ignore-patterns-ignored_*]',
  'tests/test_self.py::TestRunTC::test_ignore_recursive',
  'tests/test_self.py::TestRunTC::test_ignore_pattern_recursive',
];
const SKIPPED = [
  'tests/lint/unittest_lint.py::test_custom_should_analyze_file',
  'tests/lint/unittest_lint.py::test_multiprocessing[1]',
  'tests/lint/unittest_lint.py::test_multiprocessing[2]',
  'tests/test_self.py::TestRunTC::test_jobs_score',
];

/** A pytest -rA -v run of the graded tests and three others, with SWE-bench's four verbose skip lines and skip summaries. */
const LOG = `============================= test session starts ==============================
platform linux -- Python 3.9.20, pytest-7.4.4, pluggy-1.5.0
rootdir: /testbed
configfile: setup.cfg
plugins: benchmark-4.0.0, timeout-2.3.1
collected 11 items

${FAIL_TO_PASS.slice(0, 2)
  .map((t) => `${t} PASSED`)
  .join('\n')}
${SKIPPED.slice(0, 3)
  .map((t) => `${t} SKIPPED [1] Need 2 or more cores`)
  .join('\n')}
tests/lint/unittest_lint.py::test_load_plugin_path_manipulation_case_6 XFAIL (#6069)
${FAIL_TO_PASS.slice(2)
  .map((t) => `${t} PASSED`)
  .join('\n')}
tests/test_self.py::TestRunTC::test_version FAILED
tests/test_self.py::TestRunTC::test_do_not_import_files_from_local_directory FAILED
${SKIPPED[3]} SKIPPED [1] Need 2 or more cores

=================================== FAILURES ===================================
___________________________ TestRunTC.test_version ____________________________
E   subprocess.CalledProcessError: Command '['python', '-m', 'pylint', '--version']' returned non-zero exit status 1.
=========================== short test summary info ============================
${FAIL_TO_PASS.map((t) => `PASSED ${t}`).join('\n')}
SKIPPED [1] tests/lint/unittest_lint.py:774: Need 2 or more cores
SKIPPED [2] tests/lint/unittest_lint.py:803: Need 2 or more cores
SKIPPED [1] tests/test_self.py:1050: Need 2 or more cores
XFAIL tests/lint/unittest_lint.py::test_load_plugin_path_manipulation_case_6 - #6069
FAILED tests/test_self.py::TestRunTC::test_version - subprocess.CalledProcessError: Command '['python', '-m', 'pylint', '--version']'...
FAILED tests/test_self.py::TestRunTC::test_do_not_import_files_from_local_directory - AssertionError: assert 1 == 0
============== 2 failed, 4 passed, 4 skipped, 1 xfailed in 41.27s ==============
`;

const task = { repo: 'pylint-dev/pylint', version: '2.15', testPatch: '', failToPass: FAIL_TO_PASS, passToPass: SKIPPED };
const spec = sweTestSpec(task);
const run = (stdout: string): ExecResult => ({
  exitCode: 1,
  stdout,
  stderr: '',
  timedOut: false,
  oomKilled: false,
  stdoutCutBytes: 0,
  stderrCutBytes: 0,
  durationMs: 41_270,
});
const reference = (skipped: TestStatus | 'MISSING'): SweReference => ({
  statuses: Object.fromEntries([...FAIL_TO_PASS.map((t) => [t, 'PASSED']), ...SKIPPED.map((t) => [t, skipped])]),
  skipReasons: {},
});

describe('pylint-6528 on one core, graded against its reference run', () => {
  it('is read by the pytest-options parser: four skipped tests with their reason, and three skip summaries that name none', () => {
    expect(spec.parser).toBe('pytest-options');
    const report = readSweReport({ ...task, reference: reference('SKIPPED') }, spec, run(LOG));
    expect(report.passToPass).toEqual(Object.fromEntries(SKIPPED.map((t) => [t, 'SKIPPED'])));
    expect(report.skipReasons).toEqual(Object.fromEntries(SKIPPED.map((t) => [t, 'Need 2 or more cores'])));
    expect(report.skipSummaries.map((s) => `${s.path}:${s.line} ×${s.count}`)).toEqual([
      'tests/lint/unittest_lint.py:774 ×1',
      'tests/lint/unittest_lint.py:803 ×2',
      'tests/test_self.py:1050 ×1',
    ]);
    expect(Object.keys(report.statuses).some((id) => id.startsWith('['))).toBe(false);
  });

  it('passes where the reference run skipped the same four tests, as SWE-bench resolves it', () => {
    const report = readSweReport({ ...task, reference: reference('SKIPPED') }, spec, run(LOG));
    expect(report.outcome).toBe('passed');
    expect(report.tamper).toEqual([]);
  });

  it('fails where the reference run passed them, with a tamper sign for each: the agent’s work made them skip', () => {
    const report = readSweReport({ ...task, reference: reference('PASSED') }, spec, run(LOG));
    expect(report.outcome).toBe('failed');
    expect(report.tamper).toEqual(
      SKIPPED.map(
        (t) =>
          `the graded test ${t} was skipped here ("Need 2 or more cores") but PASSED in the reference run, in the same image under the same limits`,
      ),
    );
  });

  it('fails without a reference run: nothing shows that this environment skips them', () => {
    const report = readSweReport(task, spec, run(LOG));
    expect(report.outcome).toBe('failed');
    expect(report.log).toContain(`${SKIPPED[0]} SKIPPED (no reference run shows that this environment skips it)`);
    expect(report.tamper).toEqual([]);
  });

  it('reads pytest 7’s own verbose skip lines alike, with the reason the terminal cut taken whole from the skip summary', () => {
    const pytest7 = LOG.replaceAll(' SKIPPED [1] Need 2 or more cores', ' SKIPPED (Need 2...) [ 50%]').replace(
      `${SKIPPED[0]} SKIPPED (Need 2...) [ 50%]`,
      `${SKIPPED[0]} SKIPPED     [ 27%]`,
    );
    const report = readSweReport({ ...task, reference: reference('SKIPPED') }, spec, run(pytest7));
    expect(report.outcome).toBe('passed');
    expect(report.skipReasons[SKIPPED[1]!]).toBe('Need 2 or more cores');
    expect(report.skipReasons[SKIPPED[0]!]).toBe('Need 2 or more cores');
  });

  it('without -v (the harness runs pylint with `pytest -rA`) the skipped tests go unnamed: they fail, and the report says where pytest skipped some', () => {
    const quiet = LOG.split('\n')
      .filter((l) => !/ (PASSED|SKIPPED|XFAIL|FAILED)( |$)/.test(l) || /^(PASSED|XFAIL|FAILED) /.test(l))
      .join('\n');
    const report = readSweReport({ ...task, reference: reference('MISSING') }, spec, run(quiet));
    expect(report.passToPass[SKIPPED[1]!]).toBe('MISSING');
    expect(report.outcome).toBe('failed');
    expect(report.log).toContain('skipped without a name in tests/lint/unittest_lint.py:803: 2 test(s), "Need 2 or more cores"');
  });
});
