import type { Task } from '../tasks/task.js';
import { mutationKind } from './kinds/registry.js';
import type { MutationType } from './outcome.js';
import type { MutateTaskExtras, TaskMutation } from './task-mutation.js';

export type { MutateTaskExtras, TaskMutation } from './task-mutation.js';

/**
 * The `type` variant of an original task, made from its original tests by its kind's engine. The variant keeps the
 * task's id: a dataset tells variants apart by their split.
 */
export async function mutateTask(task: Task, type: MutationType, seed: number, extras: MutateTaskExtras = {}): Promise<TaskMutation> {
  return mutationKind(task).mutate(task, type, seed, extras);
}

/** The task as a row of its dataset's format, with its mutation record. */
export function taskRow(task: Task): object {
  return mutationKind(task).row(task);
}
