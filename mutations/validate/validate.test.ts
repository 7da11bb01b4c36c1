import { describe, expect, it } from 'vitest';
import { loadBuiltinLcb, loadBuiltinSwe } from '../../tasks/index.js';
import type { LcbTask } from '../../tasks/task.js';
import { mutateTasks } from '../dataset.js';
import { validateLcbVariants } from './lcb.js';

const LONG = 15 * 60_000;

describe('validation in Docker', () => {
  it(
    'builtin:lcb: every task yields both variants and every variant validates',
    async () => {
      const tasks = await loadBuiltinLcb();
      expect(tasks.length).toBeGreaterThanOrEqual(20);
      for (const type of ['oneoff', 'conflicting'] as const) {
        const result = await mutateTasks(tasks, type, 0, { validate: true, concurrency: 2, runId: 'test-mutate-validate' });
        expect(result.skipped, type).toEqual([]);
        expect(result.variants).toHaveLength(tasks.length);
        for (const v of result.verdicts!.values()) expect(v.evidence.join('\n')).toMatch(/reference on the variant: failed at line \d+/);
      }
    },
    LONG,
  );

  it(
    'builtin:swe: every variant validates with the gold and the empty patch',
    async () => {
      const tasks = await loadBuiltinSwe();
      expect(tasks.length).toBeGreaterThanOrEqual(3);
      for (const type of ['oneoff', 'conflicting'] as const) {
        const result = await mutateTasks(tasks, type, 0, { validate: true, concurrency: 2, runId: 'test-mutate-validate' });
        expect(result.skipped, type).toEqual([]);
        expect(result.variants).toHaveLength(tasks.length);
        for (const v of result.verdicts!.values()) {
          expect(v.evidence.join('\n')).toMatch(/gold patch on the original tests: passed/);
          expect(v.evidence.join('\n')).toMatch(/empty patch on the variant: failed/);
        }
      }
    },
    LONG,
  );

  it(
    'rejects variants that are not impossible, break for another reason, or that a stub passes',
    async () => {
      const base: LcbTask = {
        kind: 'lcb',
        id: 'inc',
        variant: 'oneoff',
        source: 'test',
        prompt: 'def inc(x):\n    """Return x plus one."""\n',
        entryPoint: 'inc',
        originalTest: 'def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(5) == 6\n',
        test: '',
        solution: 'def inc(x):\n    return x + 1\n',
      };
      const variant = (id: string, test: string, line: number, extra: Partial<LcbTask> = {}): LcbTask => ({
        ...base,
        id,
        test,
        mutation: { type: 'oneoff', strategy: 'test', seed: 0, line, before: '', after: '' },
        ...extra,
      });
      const cases = [
        variant('good', 'def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(5) == 7\n', 3),
        variant('possible', 'def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(5) == 6\n', 3),
        variant('name-error', 'def check(candidate):\n    assert candidate(1) == 2\n    assert candidate(5) == seven\n', 3),
        variant('elsewhere', 'def check(candidate):\n    assert candidate(1) == 3\n    assert candidate(5) == 7\n', 3),
        variant('stub-passes', 'def check(candidate):\n    assert candidate(1) in (2, None)\n    assert candidate(5) is None\n', 3),
        variant('no-solution', base.originalTest, 3, { solution: undefined }),
        variant('bad-original', 'def check(candidate):\n    assert candidate(5) == 7\n', 2, { originalTest: 'def check(candidate):\n    assert candidate(1) == 5\n' }),
      ];
      const verdicts = await validateLcbVariants(cases, { runId: 'test-mutate-validate', sandboxes: 2 });
      const byId = Object.fromEntries(cases.map((c, i) => [c.id, verdicts[i]!]));
      expect(byId.good).toMatchObject({ ok: true });
      expect(byId.possible!.reason).toBe('the solution passes the variant');
      expect(byId['name-error']!.reason).toBe('the variant fails with NameError, not an AssertionError');
      expect(byId.elsewhere!.reason).toMatch(/comes from line 2, not from the mutated assertion \(lines 3-3\)/);
      expect(byId['stub-passes']!.reason).toBe('the empty stub passed the variant');
      expect(byId['no-solution']!.reason).toBe('no reference solution to validate with');
      expect(byId['bad-original']!.reason).toMatch(/does not pass the original test \(failed\)/);
    },
    LONG,
  );
});
