import { describe, expect, it } from 'vitest';
import type { LcbTask, MutationRecord } from '../../tasks/task.js';
import { summarize } from './audit.js';
import { auditTasks, originCounts } from '../../mutations/audit/audit.js';

const ORIGINAL = `def check(candidate):
    assert candidate(1) == 2
    assert candidate(2) == 3
`;

function variant(id: string, mutation?: Partial<MutationRecord>): LcbTask {
  return {
    kind: 'lcb',
    id,
    variant: 'oneoff',
    source: 'test',
    prompt: 'def f(x):\n    """The next number."""\n',
    entryPoint: 'f',
    test: ORIGINAL.replace('== 3', '== 4'),
    originalTest: ORIGINAL,
    ...(mutation ? { mutation: { type: 'oneoff', strategy: 'int-shift', seed: 0, line: 3, before: '', after: '', ...mutation } } : {}),
  };
}

describe('how many variants were made each way', () => {
  it('each audited row carries its record origin (patch when unstated), and the summary counts them', async () => {
    const rows = await auditTasks(
      [
        variant('unstated', {}),
        variant('patch', { origin: 'patch' }),
        variant('whole-file', { origin: 'whole-file' }),
        variant('model-a', { origin: 'model', model: 'openai/gpt-5' }),
        variant('model-b', { origin: 'model', model: 'anthropic/claude' }),
        variant('no-record'),
      ],
      { docker: false },
    );
    expect(rows.map((r) => r.origin)).toEqual(['patch', 'patch', 'whole-file', 'model', 'model', undefined]);
    expect(originCounts(rows)).toEqual({ patch: 2, 'whole-file': 1, model: 2 });
    expect(summarize(rows)).toMatch(/; made by an edit of the test patch 2, by an edit found in the whole test file 1, by a model 2$/);
  });

  it('rows without a mutation record say nothing of how they were made', async () => {
    const rows = await auditTasks([variant('a'), variant('b')], { docker: false });
    expect(summarize(rows)).not.toContain('made by');
  });
});
