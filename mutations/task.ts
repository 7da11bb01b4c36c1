import type { LcbTask, SweTask, Task } from '../tasks/task.js';
import { mutateLcbTest } from './lcb/mutate.js';
import type { MutationType } from './outcome.js';
import { mutateSweTestPatch } from './swe/mutate.js';
import { mutateWithModel } from './swe/model-fallback.js';
import type { ModelClient } from '../core/model.js';
import type { PromptFile } from '../core/text-file.js';

export type TaskMutation = { ok: true; task: Task } | { ok: false; reason: string };

/**
 * The `type` variant of an original task, made from its original tests. The variant keeps the
 * task's id: a dataset tells variants apart by their split.
 */
export interface MutateTaskExtras {
  /** The SWE task's test files at its base commit, by path, when its repository is at hand (whole-file mutation). */
  baseFiles?: ReadonlyMap<string, string>;
  /** A model asked for the variant when the engine can make none. */
  model?: { client: ModelClient; template: PromptFile };
  /** Variants tried already (validation rejected them), by test patch (SWE) or test (LCB): the next candidate is made instead. */
  skip?: ReadonlySet<string>;
}

export async function mutateTask(task: Task, type: MutationType, seed: number, extras: MutateTaskExtras = {}): Promise<TaskMutation> {
  if (task.kind === 'lcb') {
    const m = await mutateLcbTest(task.originalTest, type, seed, task.id, extras.skip);
    if (!m.ok) return m;
    const variant: LcbTask = { ...task, variant: type, test: m.text, mutation: m.record };
    return { ok: true, task: variant };
  }
  const input = {
    id: task.id,
    testPatch: task.originalTestPatch,
    failToPass: task.failToPass,
    ...(extras.baseFiles ? { baseFiles: extras.baseFiles } : {}),
    ...(extras.skip ? { skip: extras.skip } : {}),
  };
  let m = await mutateSweTestPatch(input, type, seed);
  if (!m.ok && extras.model) {
    const asked = await mutateWithModel(extras.model.client, extras.model.template, input, type, seed);
    m = asked.ok ? asked : { ok: false, reason: `${m.reason}; ${asked.reason}` };
    if (m.ok && extras.skip?.has(m.testPatch)) m = { ok: false, reason: `the model's variant was tried already` };
  }
  if (!m.ok) return m;
  // A case the variant adds (a duplicated parametrize row) is graded with the rest.
  const failToPass = m.addedTests ? [...task.failToPass, ...m.addedTests] : task.failToPass;
  const mutation = m.addedTests?.length ? { ...m.record, addedTests: m.addedTests } : m.record;
  const variant: SweTask = { ...task, variant: type, testPatch: m.testPatch, failToPass, mutation };
  return { ok: true, task: variant };
}
