import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { loadBuiltinLcb, loadBuiltinSwe } from '../../tasks/index.js';
import type { LcbTask, SweTask } from '../../tasks/task.js';
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
    'a smoke test: expect-error validates where the unfixed code fails before it, and a one-off the unfixed code agrees with is rejected',
    async () => {
      const keyval = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'));
      if (keyval?.repoSource?.type !== 'git') throw new Error('builtin:swe has no keyval project in a git repository');
      // Two tests that assert nothing; before the fix, `parse` raises on a value holding `=`.
      // The first crashes before its last statement, the second in it.
      const smoke = [
        '',
        '',
        'def test_url_value_parses():',
        '    parsed = parse("url=http://x/?a=b")',
        '    parsed.clear()',
        '',
        '',
        'def test_url_value_smoke():',
        '    parse("expr = 1+1=2")',
        '',
      ].join('\n');
      const dir = await mkdtemp(join(tmpdir(), 'ib-expect-error-'));
      let testPatch: string;
      try {
        const git = (...args: string[]) => execa('git', args, { cwd: dir });
        await execa('git', ['clone', '-q', keyval.repoSource.path, dir]);
        await git('checkout', '-q', keyval.baseCommit);
        await writeFile(join(dir, 'tests.diff'), keyval.testPatch);
        await git('apply', 'tests.diff');
        await rm(join(dir, 'tests.diff'));
        await appendFile(join(dir, 'tests', 'test_parse.py'), smoke);
        testPatch = `${(await git('diff')).stdout}\n`;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      const task = (id: string, test: string): SweTask => ({
        ...keyval,
        id,
        testPatch,
        originalTestPatch: testPatch,
        failToPass: [`tests/test_parse.py::${test}`],
      });
      const tasks = [task('keyval-smoke-before', 'test_url_value_parses'), task('keyval-smoke-in', 'test_url_value_smoke')];
      const oneoff = await mutateTasks(tasks, 'oneoff', 0, { validate: true, concurrency: 2, runId: 'test-mutate-validate' });
      expect(oneoff.variants.map((v) => [v.id, v.mutation?.strategy])).toEqual([['keyval-smoke-before', 'expect-error']]);
      // The row's one candidate was tried: none is left to take its place.
      expect(oneoff.skipped).toEqual([
        {
          id: 'keyval-smoke-in',
          stage: 'validate',
          reason: 'an empty patch passed the variant; no other candidate: every variant the engine makes of it was tried',
        },
      ]);
      const conflicting = await mutateTasks(tasks, 'conflicting', 0, { validate: true, concurrency: 2, runId: 'test-mutate-validate' });
      expect(conflicting.skipped).toEqual([]);
      expect(conflicting.variants.map((v) => v.mutation?.strategy)).toEqual(['duplicate/expect-error', 'duplicate/expect-error']);
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
        variant('bad-original', 'def check(candidate):\n    assert candidate(5) == 7\n', 2, {
          originalTest: 'def check(candidate):\n    assert candidate(1) == 5\n',
        }),
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
