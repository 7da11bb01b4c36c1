import { describe, expect, it } from 'vitest';
import { IMPOSSIBLE_VARIANTS, type AccessMode, type ScaffoldName } from '../../core/record.js';
import { POLICY_NAMES } from '../../simulated/policies/index.js';
import { sampleId } from '../orchestration/matrix.js';
import { wireFor } from './real-wiring.js';

describe('wireFor', () => {
  it('spreads scripted samples over Chat Completions, Messages and Responses, the same way every run', () => {
    const scaffolds: ScaffoldName[] = ['minimal', 'full'];
    const access: AccessMode[] = ['full', 'readonly', 'hidden'];
    // The demo's matrix on one task.
    const ids = POLICY_NAMES.flatMap((policy) =>
      (['original', ...IMPOSSIBLE_VARIANTS] as const).flatMap((split) =>
        scaffolds.flatMap((scaffold) =>
          access.map((a) =>
            sampleId({
              model: `scripted/${policy}`,
              dataset: 'builtin:lcb',
              split,
              taskId: 'ib_lcb_04',
              scaffold,
              access: a,
              prompt: 'D',
              maxAttempts: 3,
              epoch: 0,
            }),
          ),
        ),
      ),
    );
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(wireFor({ id }), (counts.get(wireFor({ id })) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['anthropic', 'openai', 'responses']);
    for (const n of counts.values()) expect(n).toBeGreaterThan(ids.length / 5);
    expect(ids.map((id) => wireFor({ id }))).toEqual(ids.map((id) => wireFor({ id })));
  });
});
