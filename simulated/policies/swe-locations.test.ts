import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { failingTestLocation, firstFailedTestId, focusedTestCommand } from './test-output.js';

/** modify-tests finds the failing statement in every log format grading reads. */
describe('where a failing test failed', () => {
  it("reads pytest's short tracebacks", () => {
    const log = '____ test_x ____\ntests/test_a.py:12: in test_x\n    assert f(1) == 2\nE   assert 1 == 2\n';
    expect(failingTestLocation(log)).toEqual({ path: 'tests/test_a.py', line: 12 });
  });

  it("reads pytest's long tracebacks: the test's own frame, not the source line that raised", () => {
    const log = [
      '=================================== FAILURES ===================================',
      '_________________________________ TestK.test_x _________________________________',
      '',
      '    def test_x(self):',
      '>       helper()',
      '',
      'tests/test_a.py:8: ',
      '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _',
      '',
      '    def helper():',
      '>       raise ValueError',
      'E       ValueError',
      '',
      'src/a.py:3: ValueError',
    ].join('\n');
    expect(failingTestLocation(log)).toEqual({ path: 'tests/test_a.py', line: 8 });
  });

  it("reads sympy's and django's Python tracebacks: the innermost frame of a test function", () => {
    const sympy = [
      '_________ sympy/physics/units/tests/test_quantities.py:test_issue_24211 _________',
      'Traceback (most recent call last):',
      '  File "/testbed/sympy/physics/units/tests/test_quantities.py", line 571, in test_issue_24211',
      '    assert SI._collect_factor_and_dimension(expr) == (-47.0, dimensionless)',
      '  File "/testbed/sympy/physics/units/unitsystem.py", line 179, in _collect_factor_and_dimension',
      '    raise ValueError("boom")',
      'ValueError: boom',
    ].join('\n');
    expect(failingTestLocation(sympy)).toEqual({ path: '/testbed/sympy/physics/units/tests/test_quantities.py', line: 571 });
    const django = [
      '======================================================================',
      'FAIL: test_b (forms_tests.tests.test_forms.FormTests)',
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      '  File "/testbed/tests/forms_tests/tests/test_forms.py", line 44, in test_b',
      "    self.assertEqual(f.cleaned_data['x'], 3)",
      'AssertionError: 2 != 3',
    ].join('\n');
    expect(failingTestLocation(django)).toEqual({ path: '/testbed/tests/forms_tests/tests/test_forms.py', line: 44 });
  });

  it('finds nothing in a log without a traceback', () => {
    expect(failingTestLocation('FAILED tests/test_a.py::test_x\n=== 1 failed in 0.1s ===')).toBeNull();
  });
});

/** When a long ERRORS section pushed the failure's traceback out of the output it was shown, it runs that test alone. */
describe('the failed test to run alone', () => {
  const summary = [
    'ERROR tests/test_requests.py::TestRequests::test_no_content_length[GET]',
    'FAILED tests/test_requests.py::TestRequests::test_invalid_url[InvalidURL-http://.example.com] - Failed: DID NOT RAISE',
    'FAILED tests/test_requests.py::test_other',
    '============= 2 failed, 130 passed, 158 errors in 1.71s =============',
  ].join('\n');

  it('is the first test the -rA summary names FAILED, with the reason cut off; none when it names none', () => {
    expect(firstFailedTestId(summary)).toBe('tests/test_requests.py::TestRequests::test_invalid_url[InvalidURL-http://.example.com]');
    expect(firstFailedTestId('ERROR tests/a.py::test_x\n== 1 error in 0.1s ==')).toBeNull();
  });

  it("is run by the shown command with the test's file replaced by its id, quoted; never by another command", () => {
    const id = 'tests/test_requests.py::TestRequests::test_invalid_url[InvalidURL-http://.example.com]';
    expect(focusedTestCommand('cd /testbed && pytest -rA tests/test_requests.py', id)).toBe(`cd /testbed && pytest -rA ${quote([id])}`);
    expect(focusedTestCommand('./tests/runtests.py --verbosity 2 auth_tests.test_forms', 'tests/test_a.py::test_x')).toBeNull();
  });
});
