import { UserError } from '../../core/errors.js';
import type { Experiment } from '../settings/config.js';

/** The run's choice of tasks by id: `--task` keeps only those, `--exclude-task` (and `--exclude-file`) leave some out. */
export type TaskIdChoice = Partial<Pick<Experiment, 'tasks' | 'excludeTasks'>>;

export function chosenIds(ids: readonly string[], choice: TaskIdChoice): string[] {
  const only = choice.tasks?.length ? new Set(choice.tasks) : undefined;
  const out = new Set(choice.excludeTasks ?? []);
  return ids.filter((id) => (!only || only.has(id)) && !out.has(id));
}

/** Every task id a dataset had, before the choice, by its loaded tasks (a `DatasetTasks`): kept beside the loaded tasks to check the ids the run was given. */
const knownIds = new WeakMap<object, ReadonlySet<string>>();

export function rememberKnownIds(tasks: object, ids: Iterable<string>): void {
  knownIds.set(tasks, new Set(ids));
}

/**
 * Stops the run before it starts when an id given by `--task` or `--exclude-task` names no task of any of its
 * datasets: a typo would otherwise run the wrong tasks, or leave in the one meant to be left out.
 */
export function checkTaskIds(choice: TaskIdChoice, datasets: ReadonlyMap<string, object>): void {
  const given = [
    ...(choice.tasks ?? []).map((id) => ['--task', id] as const),
    ...(choice.excludeTasks ?? []).map((id) => ['--exclude-task', id] as const),
  ];
  if (given.length === 0) return;
  const known = [...datasets.values()].map((t) => knownIds.get(t));
  // A loader that does not say its ids (a test's) cannot be checked.
  if (known.some((k) => k === undefined)) return;
  const unknown = given.filter(([, id]) => !known.some((k) => k!.has(id)));
  if (unknown.length === 0) return;
  const shown = unknown.slice(0, 5).map(([flag, id]) => `${flag} ${id}`);
  throw new UserError(
    `${shown.join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}: no task of ${[...datasets.keys()].join(', ')} has ${unknown.length === 1 ? 'that id' : 'those ids'}`,
    '`impossiblebench datasets show DATASET --ids` lists its tasks',
  );
}
