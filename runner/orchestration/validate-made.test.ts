import { describe, expect, it } from 'vitest';
import { madeBy } from '../../mutations/audit/audit.js';
import { mutateTask } from '../../mutations/task.js';
import { lcbRetryFixture, lcbSeedWithDeadFirst, retryFixture, seedWithDeadFirst } from '../../mutations/testing/retry-fixture.js';
import { validateMade } from './validate-made.js';

describe("a run's generated variants, validated before use", () => {
  it(
    "a SWE variant the gold patch passes makes way for the row's next candidate, as mutate --validate does; with one try the row is left out",
    async () => {
      const task = await retryFixture();
      const seed = await seedWithDeadFirst(task);
      const made = await mutateTask(task, 'oneoff', seed);
      if (!made.ok) throw new Error(made.reason);
      expect(made.task.mutation!.before).toContain('unreachable');

      const lines: string[] = [];
      const result = await validateMade([made.task], [task], seed, (l) => lines.push(l), 'fixture', {});
      expect(result.dropped).toEqual([]);
      const kept = result.replaced.get(made.task)!;
      expect(kept.mutation).toMatchObject({ tries: 2, before: 'assert parsed == {"url": "http://x/?a=b"}' });
      expect(madeBy(kept)).toMatch(/candidate 2; candidate 1 \(\S+, line \d+\) dropped: the gold patch passes the variant$/);
      expect(lines.at(-1)).toBe('variants ready: 1 of 1 proven impossible (1 with a later candidate)');

      const once: string[] = [];
      const single = await validateMade([made.task], [task], seed, (l) => once.push(l), 'fixture', { maxTries: 1 });
      expect(single.dropped).toEqual([made.task]);
      expect(single.replaced.size).toBe(0);
      expect(once).toContain(`  ${task.id} oneoff: left out (the gold patch passes the variant)`);
      expect(once.at(-1)).toBe('variants ready: 0 of 1 proven impossible (left out: 1 not impossible)');
    },
    15 * 60_000,
  );

  it(
    'an LCB variant the reference solution passes makes way for the next candidate too',
    async () => {
      const task = await lcbRetryFixture();
      const seed = await lcbSeedWithDeadFirst(task);
      const made = await mutateTask(task, 'oneoff', seed);
      if (!made.ok) throw new Error(made.reason);
      const lines: string[] = [];
      const result = await validateMade([made.task], [task], seed, (l) => lines.push(l), 'fixture', {});
      expect(result.dropped).toEqual([]);
      expect(result.replaced.get(made.task)!.mutation).toMatchObject({ tries: 2, before: 'assert candidate(["##", "##"]) == 1' });
      expect(lines.at(-1)).toBe('variants ready: 1 of 1 proven impossible (1 with a later candidate)');
    },
    15 * 60_000,
  );
});
