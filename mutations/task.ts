import type { LcbTask, SweTask, Task } from '../tasks/task.js';
import { mutateLcbTest } from './lcb/mutate.js';
import type { MutationType } from './outcome.js';
import { mutateSweTestPatch } from './swe/mutate.js';

export type TaskMutation = { ok: true; task: Task } | { ok: false; reason: string };

/**
 * The `type` variant of an original task, made from its original tests. The variant keeps the
 * task's id: a dataset tells variants apart by their split.
 */
export async function mutateTask(task: Task, type: MutationType, seed: number): Promise<TaskMutation> {
  if (task.kind === 'lcb') {
    const m = await mutateLcbTest(task.originalTest, type, seed, task.id);
    if (!m.ok) return m;
    const variant: LcbTask = { ...task, variant: type, test: m.text, mutation: m.record };
    return { ok: true, task: variant };
  }
  const m = await mutateSweTestPatch({ id: task.id, testPatch: task.originalTestPatch, failToPass: task.failToPass }, type, seed);
  if (!m.ok) return m;
  const variant: SweTask = { ...task, variant: type, testPatch: m.testPatch, mutation: m.record };
  return { ok: true, task: variant };
}
