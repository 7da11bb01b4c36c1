import { describe, expect, it } from 'vitest';
import type { TestStatus } from './runner-log.js';
import { statusOf } from './test-ids.js';

const map = (entries: Record<string, TestStatus>) => new Map(Object.entries(entries));

describe('statusOf: a published id cut inside its parameters', () => {
  it('names every test whose id it begins, only when its brackets are left open', () => {
    const statuses = map({ 't.py::test_x[case-1-extended]': 'PASSED', 't.py::test_y[log(photon / m**2 s)]': 'PASSED' });
    expect(statusOf(statuses, 't.py::test_x[case-1]')).toBeUndefined();
    expect(statusOf(statuses, 't.py::test_y[log(photon')).toBe('PASSED');
  });

  it('passes only when every test it names passed; an expected failure among them makes it one', () => {
    expect(statusOf(map({ 't[a-None]': 'PASSED', 't[a-No-x]': 'PASSED' }), 't[a-No')).toBe('PASSED');
    expect(statusOf(map({ 't[a-None]': 'PASSED', 't[a-No-x]': 'XFAIL' }), 't[a-No')).toBe('XFAIL');
  });

  it('takes the worst status otherwise: a failure among passes, or a failure beside a skip, fails it', () => {
    expect(statusOf(map({ 't[a-None]': 'PASSED', 't[a-No-x]': 'FAILED' }), 't[a-No')).toBe('FAILED');
    // SWE-bench takes the first match's status here, so a skip listed first would keep a PASS_TO_PASS test.
    expect(statusOf(map({ 't[a-None]': 'SKIPPED', 't[a-No-x]': 'FAILED' }), 't[a-No')).toBe('FAILED');
    expect(statusOf(map({ 't[a-None]': 'SKIPPED', 't[a-No-x]': 'SKIPPED' }), 't[a-No')).toBe('SKIPPED');
  });

  it('an exact id wins over the prefix rule, and a surplus closing bracket is no cut', () => {
    expect(statusOf(map({ 't[a': 'FAILED', 't[a b]': 'PASSED' }), 't[a')).toBe('FAILED');
    expect(statusOf(map({ 'handles foo] gracefully and more': 'PASSED' }), 'handles foo] gracefully')).toBeUndefined();
  });
});
