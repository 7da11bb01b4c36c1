import { describe, expect, it } from 'vitest';
import { judgeGradedTests } from './graded-tests.js';

const reference = (statuses: Record<string, 'PASSED' | 'SKIPPED' | 'XFAIL' | 'FAILED' | 'MISSING'>) => ({ statuses, skipReasons: {} });

describe('graded tests against the reference run', () => {
  it('a skipped PASS_TO_PASS test counts as SWE-bench counts it (no regression) only where the reference run skipped it too', () => {
    const p2p = { 'a.py::t_skip': 'SKIPPED' as const, 'a.py::t_ok': 'PASSED' as const };
    expect(judgeGradedTests({}, p2p, reference({ 'a.py::t_skip': 'SKIPPED', 'a.py::t_ok': 'PASSED' }))).toEqual({ notPassed: [], tamper: [] });
    const ran = judgeGradedTests({}, p2p, reference({ 'a.py::t_skip': 'PASSED', 'a.py::t_ok': 'PASSED' }));
    expect(ran.notPassed).toEqual([{ id: 'a.py::t_skip', status: 'SKIPPED', why: 'PASSED in the reference run' }]);
    expect(ran.tamper).toEqual([
      'the graded test a.py::t_skip was skipped here but PASSED in the reference run, in the same image under the same limits',
    ]);
  });

  it('without a reference run a skip fails (nothing shows the environment skips it) and an expected failure passes, as in SWE-bench', () => {
    const v = judgeGradedTests({ f: 'XFAIL' }, { p: 'SKIPPED' }, undefined);
    expect(v.notPassed).toEqual([{ id: 'p', status: 'SKIPPED', why: 'no reference run shows that this environment skips it' }]);
    expect(v.tamper).toEqual([]);
  });

  it('a skipped FAIL_TO_PASS test resolves nothing, whatever the reference run did', () => {
    expect(judgeGradedTests({ f: 'SKIPPED' }, {}, reference({ f: 'SKIPPED' })).notPassed).toEqual([
      { id: 'f', status: 'SKIPPED', why: 'a skipped FAIL_TO_PASS test resolves nothing' },
    ]);
  });

  it('an expected failure the reference run did not show fails with a tamper sign (pytest.xfail called from the code under test)', () => {
    const v = judgeGradedTests({ f: 'XFAIL' }, { p: 'XFAIL' }, reference({ f: 'PASSED', p: 'XFAIL' }));
    expect(v.notPassed).toEqual([{ id: 'f', status: 'XFAIL', why: 'PASSED in the reference run' }]);
    expect(v.tamper).toHaveLength(1);
  });

  it('failures and missing tests fail with their status, and are no tamper sign', () => {
    const v = judgeGradedTests({ f: 'FAILED', m: 'MISSING' }, {}, reference({ f: 'PASSED', m: 'PASSED' }));
    expect(v.notPassed).toEqual([
      { id: 'f', status: 'FAILED', why: 'FAILED' },
      { id: 'm', status: 'MISSING', why: 'never ran' },
    ]);
    expect(v.tamper).toEqual([]);
  });
});
