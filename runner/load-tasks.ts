import { UserError } from '../core/errors.js';
import type { Experiment } from './config.js';
import type { DatasetTasks } from './matrix.js';
import { imagesPullCommand, missingImagesText } from './missing-images.js';
import type { MissingImage } from './datasets.js';
import type { Wiring } from './wiring.js';

/**
 * Loads (and, where needed, makes) every dataset's tasks, once, before the run exists, so bad input leaves no run
 * behind. `resume`: only to say, on an interrupt, that the run was not changed.
 */
export async function loadTasksOnce(
  wiring: Wiring,
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
  return tasks;
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
  const runnable = [...tasks.values()].reduce((n, splits) => n + [...splits.values()].reduce((m, list) => m + list.length, 0), 0);
  const fix = imagesPullCommand(experiment);
  if (runnable === 0) throw new UserError(missingImagesText(missing, 'so no task can run').join('\n'), fix);
  for (const line of missingImagesText(missing, 'so their tasks are left out of this run')) say(line);
  say(`  get them with: ${fix}`);
  return missing;
}
