import type { ResultStore } from '../results/store.js';
import type { MissingImage } from './datasets.js';
import type { Experiment } from './config.js';
import type { TaskLoader } from './experiment.js';
import type { SampleServices } from './sample.js';

/** Everything outside the runner that a run talks to, gathered so the CLI and the demo share one setup. */
export interface Wiring {
  services: SampleServices;
  loadTasks: TaskLoader;
  /** Removes containers labelled with this run id; returns how many. */
  removeLeftovers(runId: string): Promise<number>;
  /** Removes containers of the store's other runs that no live process owns; returns how many. */
  removeStale?(store: ResultStore, except: string): Promise<number>;
  /** Fails early, with the fix, when the engine or an image the run needs is missing. */
  preflight(experiment: Experiment): Promise<void>;
  /** Stops what the wiring started (the local model server). */
  close(): Promise<void>;
  /** The images `loadTasks` found missing so far, with the tasks it left out for them. */
  missingImages?(): MissingImage[];
}
