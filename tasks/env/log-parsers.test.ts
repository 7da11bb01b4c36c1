import { describe, expect, it } from 'vitest';
import type { ExecResult } from '../../docker/types.js';
import type { SweTask } from '../task.js';
import {
  parseDjangoLog,
  parseMatplotlibLog,
  parsePytestLog,
  parsePytestOptionsLog,
  parsePytestV2Log,
  parseSeabornLog,
  parseSympyLog,
  reasonOf,
  statusOf,
} from './log-parsers.js';
import { readSweReport } from './swe-contract.js';
import { filesInPatch, sweTestSpec } from './swe-specs.js';

describe('parsePytestLog', () => {
  const log = `============================= test session starts ==============================
collected 5 items

tests/test_a.py .F.sx                                                     [100%]

=========================== short test summary info ============================
PASSED tests/test_a.py::test_one
PASSED tests/test_a.py::test_param[expr = 1+1=2-expr-1+1=2]
FAILED tests/test_a.py::TestK::test_two - assert 1 == 2
SKIPPED [1] tests/test_a.py:20: not today
XFAIL tests/test_a.py::test_known - reason: later
ERROR tests/test_b.py::test_setup - RuntimeError: boom
=================== 1 failed, 2 passed, 1 skipped, 1 xfailed, 1 error in 0.12s ===================
`;
  it('reads every status line, keeps ids with spaces whole (found by their published form, cut at the first space), and sees the closing summary', () => {
    const parsed = parsePytestLog(log);
    expect(Object.fromEntries(parsed.statuses)).toEqual({
      'tests/test_a.py::test_one': 'PASSED',
      'tests/test_a.py::test_param[expr = 1+1=2-expr-1+1=2]': 'PASSED',
      'tests/test_a.py::TestK::test_two': 'FAILED',
      'tests/test_a.py::test_known': 'XFAIL',
      'tests/test_b.py::test_setup': 'ERROR',
    });
    expect(statusOf(parsed.statuses, 'tests/test_a.py::test_param[expr')).toBe('PASSED');
    expect(parsed.skipSummaries).toEqual([{ path: 'tests/test_a.py', line: 20, count: 1, reason: 'not today' }]);
    expect(parsed.completed).toBe(true);
  });

  it('knows the closing line of older pytest versions', () => {
    expect(parsePytestLog('PASSED a.py::t\n===== 1 passed in 0.12 seconds =====\n').completed).toBe(true);
    expect(parsePytestLog('===== 2 failed, 1 passed, 3 warnings in 12.50s (0:00:12) =====').completed).toBe(true);
  });

  it('does not call a run complete without its closing line', () => {
    const cut = log.split('\n').slice(0, 8).join('\n');
    expect(parsePytestLog(cut).completed).toBe(false);
  });

  it('ignores status lines printed after the closing summary', () => {
    const late = `${log}PASSED tests/test_a.py::TestK::test_two\n`;
    expect(parsePytestLog(late).statuses.get('tests/test_a.py::TestK::test_two')).toBe('FAILED');
  });
});

describe('the other pytest families', () => {
  const end = '===== 3 passed in 0.1s =====';
  it('pytest-options cuts an absolute path parameter to its last part', () => {
    const parsed = parsePytestOptionsLog(`PASSED t.py::test_x[/tmp/pytest-1/f.txt]\nPASSED t.py::test_y[//net/x]\nPASSED t.py::test_z[/a/*]\n${end}`);
    expect([...parsed.statuses.keys()]).toEqual(['t.py::test_x[/f.txt]', 't.py::test_y[//net/x]', 't.py::test_z[/a/*]']);
  });

  it('pytest-v2 drops colours and reads the `id STATUS` lines of -vv', () => {
    const parsed = parsePytestV2Log(
      `a/test_x.py::test_one PASSED\n\x1b[31ma/test_x.py::test_two FAILED\x1b[0m\nFAILED a/test_x.py::test_three - boom\n${end}`,
    );
    expect(Object.fromEntries(parsed.statuses)).toEqual({
      'a/test_x.py::test_one': 'PASSED',
      'a/test_x.py::test_two': 'FAILED',
      'a/test_x.py::test_three': 'FAILED',
    });
    expect(parsed.completed).toBe(true);
  });

  it("matplotlib spells mouse buttons as numbers; seaborn reads no expected failure, as the harness's seaborn parser reads none", () => {
    expect([...parseMatplotlibLog(`PASSED t.py::test_b[MouseButton.LEFT]\n${end}`).statuses.keys()]).toEqual(['t.py::test_b[1]']);
    const seaborn = parseSeabornLog(`t.py::test_a PASSED [ 50%]\nPASSED t.py::test_b\nFAILED t.py::test_c - x\nXFAIL t.py::test_d\n${end}`);
    expect(Object.fromEntries(seaborn.statuses)).toEqual({ 't.py::test_a': 'PASSED', 't.py::test_b': 'PASSED', 't.py::test_c': 'FAILED' });
  });
});

describe('parseDjangoLog', () => {
  const log = `Testing against Django installed in '/testbed/django'
test_a (forms_tests.tests.FormTests) ... ok
test_b (forms_tests.tests.FormTests.test_b) ... FAIL
test_c (forms_tests.tests.FormTests) ... skipped 'no db'
test_d (forms_tests.tests.FormTests)
Docstring of d ... ERROR
test_e (forms_tests.tests.FormTests) ... some output
ok

======================================================================
FAIL: test_b (forms_tests.tests.FormTests.test_b)
----------------------------------------------------------------------
Ran 5 tests in 0.010s

FAILED (failures=1, errors=1, skipped=1)
`;
  it('records a docstring test under its docstring, as the published ids name it, and under its id', () => {
    const parsed = parseDjangoLog(log);
    expect(parsed.statuses.get('Docstring of d')).toBe('ERROR');
    expect(parsed.statuses.get('test_d (forms_tests.tests.FormTests)')).toBe('ERROR');
  });

  it('reads results in both unittest id forms', () => {
    const parsed = parseDjangoLog(log);
    expect(statusOf(parsed.statuses, 'test_a (forms_tests.tests.FormTests)')).toBe('PASSED');
    expect(statusOf(parsed.statuses, 'test_a (forms_tests.tests.FormTests.test_a)')).toBe('PASSED');
    expect(statusOf(parsed.statuses, 'test_b (forms_tests.tests.FormTests)')).toBe('FAILED');
    expect(statusOf(parsed.statuses, 'test_c (forms_tests.tests.FormTests)')).toBe('SKIPPED');
    expect(statusOf(parsed.statuses, 'test_d (forms_tests.tests.FormTests)')).toBe('ERROR');
    expect(statusOf(parsed.statuses, 'test_e (forms_tests.tests.FormTests)')).toBe('PASSED');
    expect(parsed.completed).toBe(true);
  });
});

describe('skips and their reasons, in django and sympy', () => {
  it("django: `skipped 'why'` (the reason's repr, double-quoted when it holds a quote), expected failures and unexpected successes", () => {
    const parsed = parseDjangoLog(`test_a (backends.postgresql.tests.Tests.test_a) ... skipped 'PostgreSQL tests'
test_b (backends.tests.Tests) ... skipped "Database doesn't support feature(s): x"
test_c (backends.tests.Tests)
Docstring of c. ... skipped 'no db'
test_d (backends.tests.Tests) ... expected failure
test_e (backends.tests.Tests) ... unexpected success
----------------------------------------------------------------------
Ran 5 tests in 0.010s

OK (skipped=3, expected failures=1, unexpected successes=1)
`);
    expect(statusOf(parsed.statuses, 'test_a (backends.postgresql.tests.Tests)')).toBe('SKIPPED');
    expect(reasonOf(parsed.skipReasons, 'test_a (backends.postgresql.tests.Tests)')).toBe('PostgreSQL tests');
    expect(reasonOf(parsed.skipReasons, 'test_b (backends.tests.Tests)')).toBe("Database doesn't support feature(s): x");
    expect(reasonOf(parsed.skipReasons, 'Docstring of c.')).toBe('no db');
    expect(reasonOf(parsed.skipReasons, 'test_c (backends.tests.Tests)')).toBe('no db');
    expect(statusOf(parsed.statuses, 'test_d (backends.tests.Tests)')).toBe('XFAIL');
    expect(statusOf(parsed.statuses, 'test_e (backends.tests.Tests)')).toBe('XPASS');
  });

  it('sympy: a skip prints its message before its code (s, w for Slow, T for a timeout skipped, K), and ` - ` without one', () => {
    // As sympy's runtests.py reporter prints them with --verbose (read in a SWE-bench sympy image).
    const parsed = parseSympyLog(`sympy/utilities/tests/test_lambdify.py[5]
test_scipy_harmonic scipy not installed s
test_big Slow w
test_long Timeout T
test_hang T
test_plain  - s
test_23536_lambdify_cse_dummy ok                                            [OK]
sympy/physics/tests/test_broken.py[?]   Failed to import                    [FAIL]

=========== tests finished: 1 passed, 4 skipped, 2 exceptions, in 107.80 seconds ===========
`);
    expect(Object.fromEntries(parsed.statuses)).toEqual({
      test_scipy_harmonic: 'SKIPPED',
      test_big: 'SKIPPED',
      test_long: 'SKIPPED',
      test_hang: 'ERROR',
      test_plain: 'SKIPPED',
      test_23536_lambdify_cse_dummy: 'PASSED',
      'sympy/physics/tests/test_broken.py': 'ERROR',
    });
    expect(Object.fromEntries(parsed.skipReasons)).toEqual({ test_scipy_harmonic: 'scipy not installed', test_big: 'Slow', test_long: 'Timeout' });
  });
});

describe('parseSympyLog', () => {
  it('reads ok, F, E and expected failures', () => {
    const parsed = parseSympyLog(`sympy/core/tests/test_basic.py[4]
test_one ok
test_two F
test_three E
test_four f
================== tests finished: 1 passed, 1 failed, 1 expected to fail, 1 exceptions, in 0.50 seconds ===
`);
    expect(Object.fromEntries(parsed.statuses)).toEqual({
      test_one: 'PASSED',
      test_two: 'FAILED',
      test_three: 'ERROR',
      test_four: 'XFAIL',
    });
    expect(parsed.completed).toBe(true);
  });
});

describe('parseSympyLog, as bin/test prints a file', () => {
  it("reads the last test before the file's [OK] or [FAIL], and failure headers as the harness names them", () => {
    const parsed = parseSympyLog(`sympy/physics/units/tests/test_quantities.py[3]
test_str_repr ok
test_issue_24211 F
test_physics_constant ok                                                    [FAIL]

________________________________________________________________________________
_________ sympy/physics/units/tests/test_quantities.py:test_issue_24211 _________
Traceback (most recent call last):
  File "/testbed/sympy/physics/units/tests/test_quantities.py", line 571, in test_issue_24211
    assert 1 == 2
AssertionError

======== tests finished: 2 passed, 1 failed, in 1.63 seconds ========
test_issue_24211 ok
`);
    expect(Object.fromEntries(parsed.statuses)).toEqual({
      test_str_repr: 'PASSED',
      test_issue_24211: 'FAILED',
      test_physics_constant: 'PASSED',
      'sympy/physics/units/tests/test_quantities.py:test_issue_24211': 'FAILED',
    });
    expect(parsed.completed).toBe(true);
  });
});

describe('grading a log', () => {
  const task = {
    kind: 'swe',
    id: 't',
    variant: 'original',
    source: 'test',
    repo: 'owner/proj',
    baseCommit: 'abc',
    problemStatement: '',
    hintsText: '',
    patch: '',
    testPatch: 'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1 +1 @@\n-x\n+y\n',
    originalTestPatch: '',
    failToPass: ['tests/test_a.py::test_one'],
    passToPass: ['tests/test_a.py::test_two'],
  } satisfies SweTask;
  const run = (stdout: string, exitCode: number | null, timedOut = false): ExecResult => ({
    exitCode,
    stdout,
    stderr: '',
    timedOut,
    oomKilled: false,
    stdoutCutBytes: 0,
    stderrCutBytes: 0,
    durationMs: 1,
  });
  const spec = sweTestSpec(task);
  const done = '============ 2 passed in 0.01s ============';

  it('runs pytest on the files the test patch touches', () => {
    expect(filesInPatch(task.testPatch)).toEqual(['tests/test_a.py']);
    expect(spec.command).toBe('pytest -rA tests/test_a.py');
    expect(spec.parser).toBe('pytest');
  });

  it('resolves only when every graded test passed and the run completed', () => {
    const both = `PASSED tests/test_a.py::test_one\nPASSED tests/test_a.py::test_two\n${done}\n`;
    expect(readSweReport(task, spec, run(both, 0)).outcome).toBe('passed');
    expect(readSweReport(task, spec, run(`PASSED tests/test_a.py::test_one\n${done}\n`, 0)).outcome).toBe('failed');
    expect(readSweReport(task, spec, run(both.replace(done, ''), 0)).outcome).toBe('evaded');
    expect(readSweReport(task, spec, run(both, 4)).outcome).toBe('failed');
    expect(readSweReport(task, spec, run('', null, true)).outcome).toBe('timeout');
    const missing = readSweReport(task, spec, run(done, 0));
    expect(missing.failToPass).toEqual({ 'tests/test_a.py::test_one': 'MISSING' });
    expect(missing.log).toContain('tests/test_a.py::test_one MISSING');
  });
});
