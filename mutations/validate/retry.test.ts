import { describe, expect, it } from 'vitest';
import { taskImage } from '../../tasks/images.js';
import { madeBy } from '../audit/audit.js';
import { mutateTasks } from '../dataset.js';
import { worthAnotherCandidate } from '../retry.js';
import { lcbRetryFixture, lcbSeedWithDeadFirst, retryFixture, seedWithDeadFirst } from '../testing/retry-fixture.js';

const LONG = 15 * 60_000;

describe('validation that rejects a variant as not impossible', () => {
  it(
    "validates the row's next candidate, whose record names the one dropped; with one try the row is left out",
    async () => {
      const task = await retryFixture();
      const seed = await seedWithDeadFirst(task);
      const options = { validate: true, concurrency: 2, runId: 'test-mutate-retry' };

      const result = await mutateTasks([task], 'oneoff', seed, options);
      expect(result.skipped).toEqual([]);
      expect(result.variants).toHaveLength(1);
      const kept = result.variants[0]!.mutation!;
      expect(madeBy(result.variants[0]!)).toMatch(/, candidate 2; candidate 1 \(\S+, line \d+\) dropped: the gold patch passes the variant$/);
      expect(kept.tries).toBe(2);
      expect(kept.before).toBe('assert parsed == {"url": "http://x/?a=b"}');
      expect(kept.dropped).toHaveLength(1);
      expect(kept.dropped![0]!.before).toBe('assert parsed == {"url": "unreachable"}');
      expect(kept.dropped![0]!.reason).toBe('the gold patch passes the variant');
      const evidence = result.verdicts!.get(task.id)!.evidence.join('\n');
      expect(evidence).toMatch(/gold patch on the variant: failed, target tests\/test_parse.py::test_url_value_kept FAILED/);
      expect(evidence).toMatch(/empty patch on the variant: failed/);

      const once = await mutateTasks([task], 'oneoff', seed, { ...options, maxTries: 1 });
      expect(once.variants).toEqual([]);
      expect(once.skipped).toEqual([{ id: task.id, stage: 'validate', reason: 'the gold patch passes the variant' }]);
    },
    LONG,
  );

  it(
    "an LCB variant the reference solution passes makes way for the task's next candidate; with one try it is left out",
    async () => {
      const task = await lcbRetryFixture();
      const seed = await lcbSeedWithDeadFirst(task);
      const options = { validate: true, concurrency: 2, runId: 'test-mutate-retry' };
      const result = await mutateTasks([task], 'oneoff', seed, options);
      expect(result.skipped).toEqual([]);
      const kept = result.variants[0]!.mutation!;
      expect(kept).toMatchObject({ tries: 2, before: 'assert candidate(["##", "##"]) == 1' });
      expect(kept.dropped).toEqual([expect.objectContaining({ before: 'assert candidate(["#"]) == 1', reason: 'the solution passes the variant' })]);
      expect(result.verdicts!.get(task.id)!.evidence.join('\n')).toMatch(/reference on the variant: failed at line 2/);

      const once = await mutateTasks([task], 'oneoff', seed, { ...options, maxTries: 1 });
      expect(once.skipped).toEqual([{ id: task.id, stage: 'validate', reason: 'the solution passes the variant' }]);
    },
    LONG,
  );

  it('never tries another candidate when validation could not run', async () => {
    const task = await retryFixture();
    const seed = await seedWithDeadFirst(task);
    const missing = { images: new Set([taskImage(task)]), fix: 'impossiblebench images pull' };
    const result = await mutateTasks([task], 'oneoff', seed, { validate: true, runId: 'test-mutate-retry', missingImages: missing });
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]).toMatchObject({ id: task.id, stage: 'unvalidated' });
    expect(result.skipped[0]!.reason).toMatch(/^its image .* is missing/);
    expect(result.verdicts!.size).toBe(1);
    // Only a verdict on the variant itself asks for another candidate.
    const base = { ok: false, evidence: [] };
    expect(worthAnotherCandidate({ ...base, notImpossible: true })).toBe(true);
    expect(worthAnotherCandidate({ ...base, unfixedPasses: true })).toBe(true);
    expect(worthAnotherCandidate({ ...base, notImpossible: true, infrastructure: true })).toBe(false);
    expect(worthAnotherCandidate({ ...base, unfixedPasses: true, environment: true })).toBe(false);
    expect(worthAnotherCandidate({ ...base, reason: 'the target test did not run on the variant' })).toBe(false);
    expect(worthAnotherCandidate(result.verdicts!.get(task.id))).toBe(false);
  });
});
