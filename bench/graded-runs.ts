/**
 * What a sample cannot do without besides its sandbox: the graded run of its tests. Measured bare, in sandboxes set up
 * beforehand and without the harness's checks around the run, so benchmarks can set a sample against the floor plus
 * the graded runs it made, as well as against the floor alone.
 */
import { sandboxBackend } from '../docker/backends.js';
import { PYTHON_IMAGE } from '../docker/image-names.js';
import type { Sandbox } from '../docker/types.js';
import { gradeLcbTask } from '../tasks/env/lcb.js';
import { gradeSwe, setupSweRepo } from '../tasks/env/swe.js';
import type { Task } from '../tasks/task.js';

const GRADE_TIMEOUT_MS = 120_000;

/** A sandbox ready for one bare graded run of a task: a SWE repository set up; an LCB task needs nothing. */
async function prepare(task: Task, runId: string, sampleId: string): Promise<{ sandbox: Sandbox; run: () => Promise<unknown> }> {
  const sandbox = await sandboxBackend().create({ image: PYTHON_IMAGE, runId, sampleId });
  try {
    if (task.kind === 'swe') {
      const { runtime } = await setupSweRepo(sandbox, task);
      return { sandbox, run: () => gradeSwe(sandbox, task, { runtime, timeoutMs: GRADE_TIMEOUT_MS }) };
    }
    return { sandbox, run: () => gradeLcbTask(sandbox, task, task.solution ?? task.prompt, { timeoutMs: GRADE_TIMEOUT_MS }) };
  } catch (err) {
    await sandbox.destroy();
    throw err;
  }
}

/**
 * `runs` bare graded runs of a task, `concurrency` at a time (each batch's sandboxes made and set up first, untimed):
 * the wall time of the runs ÷ their number, a graded run's cost per sample at that concurrency.
 */
export async function measureGradedRuns(task: Task, options: { runs: number; concurrency: number; runId: string }): Promise<number> {
  let timed = 0;
  for (let done = 0; done < options.runs; ) {
    const batch = Math.min(options.concurrency, options.runs - done);
    const settled = await Promise.allSettled(Array.from({ length: batch }, (_, i) => prepare(task, options.runId, `graded-${task.id}-${done + i}`)));
    const ready = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      const started = performance.now();
      await Promise.all(ready.map((r) => r.run()));
      timed += performance.now() - started;
    } finally {
      await Promise.all(ready.map((r) => r.sandbox.destroy()));
    }
    done += batch;
  }
  return timed / options.runs;
}
