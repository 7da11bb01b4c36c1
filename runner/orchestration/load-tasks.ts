import { UserError } from '../../core/errors.js';
import type { Experiment } from '../settings/config.js';
import type { DatasetTasks } from './matrix.js';
import { checkTaskIds } from './task-filter.js';
import { imagesPullCommand, missingImagesText } from './missing-images.js';
import type { MissingImage } from './datasets.js';
import type { Wiring } from '../wiring/wiring.js';

/**
 * Loads (and, where needed, makes) every dataset's tasks, once, before the run exists, so bad input leaves no run
 * behind. `resume`: only to say, on an interrupt, that the run was not changed.
 */
export async function loadTasksOnce(
  wiring: Pick<Wiring, 'loadTasks'>,
  experiment: Experiment,
  opts: { signal: AbortSignal; resume: boolean; say: (line: string) => void },
): Promise<Map<string, DatasetTasks>> {
  const tasks = new Map<string, DatasetTasks>();
  for (const dataset of experiment.datasets) {
    opts.say(`loading ${dataset} (${experiment.splits.join(', ')})...`);
    try {
      tasks.set(dataset, await wiring.loadTasks(dataset, experiment));
    } catch (err) {
      if (opts.signal.aborted) throw new UserError(`interrupted while preparing ${dataset}; no run was ${opts.resume ? 'changed' : 'created'}`);
      throw err;
    }
  }
  checkTaskIds(experiment, tasks);
  return tasks;
}

/** An error when the reference runs left no task to run: every one is environment-broken. */
export function checkEnvironmentBroken(wiring: Wiring, experiment: Experiment, tasks: Map<string, DatasetTasks>): void {
  const broken = (wiring.references?.() ?? []).filter((r) => !r.resolved);
  if (broken.length === 0 || runnableCount(tasks) > 0) return;
  const shown = broken.slice(0, 3).map((r) => `${r.taskId} (${r.reason})`);
  throw new UserError(
    `every task is environment-broken here, so none can run: ${shown.join('; ')}${broken.length > 3 ? '; …' : ''}`,
    `see why per task with \`impossiblebench preflight ${experiment.datasets.map((d) => `--dataset ${d}`).join(' ')}\`, or run without reference runs (--no-reference)`,
  );
}

function runnableCount(tasks: Map<string, DatasetTasks>): number {
  return [...tasks.values()].reduce((n, splits) => n + [...splits.values()].reduce((m, list) => m + list.length, 0), 0);
}

/** The images the engine lacks: said with the command that gets them; an error when no task is left to run. */
export function checkMissingImages(
  wiring: Wiring,
  experiment: Experiment,
  tasks: Map<string, DatasetTasks>,
  say: (line: string) => void,
): MissingImage[] {
  const missing = wiring.missingImages?.() ?? [];
  if (missing.length === 0) return missing;
  const runnable = runnableCount(tasks);
  const fix = imagesPullCommand(experiment);
  if (runnable === 0) throw new UserError(missingImagesText(missing, 'so no task can run').join('\n'), fix);
  for (const line of missingImagesText(missing, 'so their tasks are left out of this run')) say(line);
  say(`  get them with: ${fix}`);
  return missing;
}
