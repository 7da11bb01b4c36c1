import { describe, expect, it } from 'vitest';
import { LOG_PARSERS, parsePytestLog, parsePytestOptionsLog, parsePytestV2Log, statusOf, type LogParserName } from './log-parsers.js';

/** pytest 7.2's `-rA -v` log of a file with every outcome (run in a SWE-bench image, paths shortened). */
const VERBOSE = `============================= test session starts ==============================
platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0
rootdir: /testbed
collecting ... collected 9 items

tests/test_forms.py::test_pass PASSED                                    [ 11%]
tests/test_forms.py::test_skip_mark SKIPPED (not today)                  [ 22%]
tests/test_forms.py::test_skip_call SKIPPED (runtime reason with a l...) [ 33%]
tests/test_forms.py::test_xfail XFAIL (known bug)                        [ 44%]
tests/test_forms.py::test_xpass XPASS (fixed now)                        [ 55%]
tests/test_forms.py::test_fail FAILED                                    [ 66%]
tests/test_forms.py::test_teardown_error PASSED                          [ 77%]
tests/test_forms.py::test_teardown_error ERROR                           [ 77%]
tests/test_forms.py::test_param[a b] PASSED                              [ 88%]
tests/test_forms.py::test_param[a c] FAILED                              [100%]

==================================== ERRORS ====================================
___________________ ERROR at teardown of test_teardown_error ___________________

    @pytest.fixture
    def bad_teardown():
        yield
>       raise RuntimeError("teardown")
E       RuntimeError: teardown

tests/test_forms.py:28: RuntimeError
=================================== FAILURES ===================================
__________________________________ test_fail ___________________________________

    def test_fail():
>       assert 1 == 2, "boom"
E       AssertionError: boom
E       assert 1 == 2

tests/test_forms.py:23: AssertionError
==================================== PASSES ====================================
__________________________________ test_pass ___________________________________
----------------------------- Captured stdout call -----------------------------
tests/test_forms.py::test_ghost PASSED [ 50%]
PASSED tests/test_forms.py::test_ghost
=========================== short test summary info ============================
PASSED tests/test_forms.py::test_pass
PASSED tests/test_forms.py::test_teardown_error
PASSED tests/test_forms.py::test_param[a b]
SKIPPED [1] tests/test_forms.py:7: not today
SKIPPED [1] tests/test_forms.py:12: runtime reason with a long text that will not fit on the verbose progress line
XFAIL tests/test_forms.py::test_xfail - known bug
XPASS tests/test_forms.py::test_xpass fixed now
ERROR tests/test_forms.py::test_teardown_error - RuntimeError: teardown
FAILED tests/test_forms.py::test_fail - AssertionError: boom
FAILED tests/test_forms.py::test_param[a c] - AssertionError: assert 'a c' ==...
==== 2 failed, 3 passed, 2 skipped, 1 xfailed, 1 xpassed, 1 error in 0.11s =====
`;

const PYTEST_FAMILY: LogParserName[] = ['pytest', 'pytest-options', 'pytest-v2', 'matplotlib', 'seaborn'];

describe('a pytest -rA -v log', () => {
  it('reads every outcome: the summary where it lists a test, progress lines for skips', () => {
    const parsed = parsePytestLog(VERBOSE);
    expect(Object.fromEntries(parsed.statuses)).toEqual({
      'tests/test_forms.py::test_pass': 'PASSED',
      'tests/test_forms.py::test_skip_mark': 'SKIPPED',
      'tests/test_forms.py::test_skip_call': 'SKIPPED',
      'tests/test_forms.py::test_xfail': 'XFAIL',
      'tests/test_forms.py::test_xpass': 'XPASS',
      'tests/test_forms.py::test_fail': 'FAILED',
      // Listed PASSED and ERROR (its teardown failed): the worse.
      'tests/test_forms.py::test_teardown_error': 'ERROR',
      'tests/test_forms.py::test_param[a b]': 'PASSED',
      'tests/test_forms.py::test_param[a c]': 'FAILED',
    });
    expect(parsed.completed).toBe(true);
    expect(parsed.tamper).toEqual([]);
  });

  it('takes skip reasons from the progress lines, completing one cut to the terminal from the skip summary', () => {
    const parsed = parsePytestLog(VERBOSE);
    expect(Object.fromEntries(parsed.skipReasons)).toEqual({
      'tests/test_forms.py::test_skip_mark': 'not today',
      'tests/test_forms.py::test_skip_call': 'runtime reason with a long text that will not fit on the verbose progress line',
      'tests/test_forms.py::test_xfail': 'known bug',
    });
    expect(parsed.skipSummaries).toEqual([
      { path: 'tests/test_forms.py', line: 7, count: 1, reason: 'not today' },
      { path: 'tests/test_forms.py', line: 12, count: 1, reason: 'runtime reason with a long text that will not fit on the verbose progress line' },
    ]);
  });

  it('never takes a line the code under test printed in captured output for a test', () => {
    expect(parsePytestLog(VERBOSE).statuses.has('tests/test_forms.py::test_ghost')).toBe(false);
  });

  it('reads the same in every pytest-family parser (seaborn reads no expected failure, as the harness does not)', () => {
    for (const name of PYTEST_FAMILY) {
      const statuses = LOG_PARSERS[name](VERBOSE).statuses;
      expect(statuses.get('tests/test_forms.py::test_skip_call'), name).toBe('SKIPPED');
      expect(statuses.get('tests/test_forms.py::test_fail'), name).toBe('FAILED');
      expect(statuses.get('tests/test_forms.py::test_xfail'), name).toBe(name === 'seaborn' ? undefined : 'XFAIL');
    }
  });
});

describe('pytest result lines', () => {
  const end = '===== 3 passed in 0.1s =====';

  it('reads `id STATUS` followed by anything, with an id holding spaces in its brackets', () => {
    const parsed = parsePytestLog(
      [
        'tests/a.py::test_x[a b] PASSED [ 50%]',
        'tests/lint/unittest_lint.py::test_multiprocessing[1] SKIPPED [1] Need 2 or more cores',
        'tests/a.py::test_y FAILED',
        'tests/a.py::test_z[PASSED x] ERROR (boom)',
        end,
      ].join('\n'),
    );
    expect(Object.fromEntries(parsed.statuses)).toEqual({
      'tests/a.py::test_x[a b]': 'PASSED',
      'tests/lint/unittest_lint.py::test_multiprocessing[1]': 'SKIPPED',
      'tests/a.py::test_y': 'FAILED',
      'tests/a.py::test_z[PASSED x]': 'ERROR',
    });
    expect(Object.fromEntries(parsed.skipReasons)).toEqual({ 'tests/lint/unittest_lint.py::test_multiprocessing[1]': 'Need 2 or more cores' });
  });

  it('ends a failure id where its brackets close, so a ` - ` inside a parameter stays in the id', () => {
    const parsed = parsePytestV2Log(`FAILED t.py::test_x[a - b] - AssertionError: no\n${end}`);
    expect([...parsed.statuses.keys()]).toEqual(['t.py::test_x[a - b]']);
  });

  it('records no test for a skip summary, and reads its count, place and reason', () => {
    const parsed = parsePytestOptionsLog(`SKIPPED [2] tests/lint/unittest_lint.py:803: Need 2 or more cores\nSKIP [1] t.py: old\n${end}`);
    expect(parsed.statuses.size).toBe(0);
    expect(parsed.skipSummaries).toEqual([
      { path: 'tests/lint/unittest_lint.py', line: 803, count: 2, reason: 'Need 2 or more cores' },
      { path: 't.py', line: undefined, count: 1, reason: 'old' },
    ]);
  });

  it('keeps `PASSED [100%]`: two Verified rows (pytest-5262, -7521) list that wrapped progress line as a test', () => {
    const log = `testing/test_capture.py::test_x some output\nPASSED [100%]\n${'='.repeat(10)} short test summary info ${'='.repeat(10)}\nPASSED testing/test_capture.py::test_y\n${end}`;
    expect(parsePytestLog(log).statuses.get('[100%]')).toBe('PASSED');
  });

  it('with only the default -rfE summary (no -rA), passes come from progress lines', () => {
    const log = `t.py::test_a PASSED [ 50%]\nt.py::test_b FAILED [100%]\n=== short test summary info ===\nFAILED t.py::test_b - x\n=== 1 failed, 1 passed in 0.1s ===`;
    expect(Object.fromEntries(parsePytestLog(log).statuses)).toEqual({ 't.py::test_a': 'PASSED', 't.py::test_b': 'FAILED' });
  });

  it('finds a published id cut inside its parameters as SWE-bench does: every test it begins must pass', () => {
    const parsed = parsePytestLog(VERBOSE);
    expect(statusOf(parsed.statuses, 'tests/test_forms.py::test_param[a')).toBe('FAILED');
    expect(statusOf(parsed.statuses, 'tests/test_forms.py::test_param[a b')).toBe('PASSED');
    // Brackets closed: exact ids only.
    expect(statusOf(parsed.statuses, 'tests/test_forms.py::test_param')).toBeUndefined();
  });
});
