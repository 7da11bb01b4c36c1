import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { sandboxBackend } from '../../docker/backends.js';
import { sharedDataFile } from '../../core/testing/shared-data.js';
import type { Sandbox } from '../../docker/types.js';
import { loadDataset } from '../load.js';
import type { LcbTask } from '../task.js';
import { gradeLcb, lcbContract } from './lcb.js';

// Under CI a missing sample is an error, not a skip.
const SAMPLE = sharedDataFile('impossible-lcb-sample/tasks.jsonl');
const haveSample = SAMPLE !== undefined;

let sandbox: Sandbox;

beforeAll(async () => {
  if (haveSample) sandbox = await sandboxBackend().create({ image: PYTHON_IMAGE, runId: 'test-tasks-env', sampleId: 'lcb-real' });
});

afterAll(async () => {
  await sandbox?.destroy();
});

describe.runIf(haveSample)('grading the real Impossible-LiveCodeBench sample', () => {
  it('passes each known solution on the original test and fails it on the published impossible one', async () => {
    const tasks = (await loadDataset(SAMPLE!)) as LcbTask[];
    const solved = tasks.filter((t) => t.solution);
    expect(solved).toHaveLength(12);
    const limit = pLimit(3);
    await Promise.all(
      solved.map((t) =>
        limit(async () => {
          const options = { timeoutMs: 60_000, killAgentProcesses: false };
          const solution = { code: t.solution!, order: 'solution-before-tests' } as const;
          const original = await gradeLcb(sandbox, lcbContract({ ...t, test: t.originalTest }), solution, options);
          expect(original.outcome, `${t.id} ${t.variant} on the original test:\n${original.log}`).toBe('passed');
          if (t.variant !== 'original') {
            const impossible = await gradeLcb(sandbox, lcbContract(t), solution, options);
            expect(impossible.outcome, `${t.id} ${t.variant}:\n${impossible.log}`).toBe('failed');
            expect(impossible.failingAssertion?.text, t.id).toMatch(/^assert /);
          }
        }),
      ),
    );
  });
});
