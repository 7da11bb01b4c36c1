import type { SweTask, Task } from '../tasks/task.js';
import { mutationKind } from './kinds/registry.js';
import type { MutationType } from './outcome.js';
import { type MutateTaskExtras, mutateTask, type TaskMutation } from './task.js';

export interface SourceOptions {
  /** A SWE task's test files at its base commit, when its repository is at hand: the engine may then use whole files. */
  baseFiles?: (task: SweTask) => Promise<ReadonlyMap<string, string> | undefined>;
  /** A model asked for the variants the engine cannot make. */
  model?: MutateTaskExtras['model'];
}

/**
 * The variant of one source task: the engine on the patch alone first; whole files are read only
 * for what the patch cannot do, then a model is asked for the rest. `skip` names the SWE variants
 * validation rejected already, so the next candidate in the same order comes out.
 */
export async function mutateSource(
  task: Task,
  type: MutationType,
  seed: number,
  options: SourceOptions,
  skip?: ReadonlySet<string>,
): Promise<TaskMutation> {
  const tried: MutateTaskExtras = skip ? { skip } : {};
  let m = await mutateTask(task, type, seed, tried);
  const baseFiles = !m.ok && mutationKind(task).readsBaseFiles && options.baseFiles ? await options.baseFiles(task as SweTask) : undefined;
  if (!m.ok && (baseFiles || options.model))
    m = await mutateTask(task, type, seed, { ...tried, ...(baseFiles ? { baseFiles } : {}), ...(options.model ? { model: options.model } : {}) });
  return m;
}
