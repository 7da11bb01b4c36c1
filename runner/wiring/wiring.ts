import type { ResultStore, RunReference } from '../../results/store.js';
import type { MissingImage } from '../orchestration/datasets.js';
import type { Experiment } from '../settings/config.js';
import type { TaskLoader } from '../orchestration/experiment.js';
import type { SampleServices } from '../orchestration/sample.js';

/** Containers removed at the start of a run: this run's, and those of the store's stale runs. */
export interface RemovedLeftovers {
  ofRun: number;
  stale: number;
}

/** Everything outside the runner that a run talks to, gathered so the CLI and the demo share one setup. */
export interface Wiring {
  services: SampleServices;
  loadTasks: TaskLoader;
  /**
   * Removes the containers labelled with this run id (a killed process of it left them), and those of the store's
   * other runs that no live process owns.
   */
  removeLeftovers(store: ResultStore, runId: string): Promise<RemovedLeftovers>;
  /** Fails early, with the fix, when the engine or an image the run needs is missing. */
  preflight(experiment: Experiment): Promise<void>;
  /** Stops what the wiring started (the local model server). */
  close(): Promise<void>;
  /** The images `loadTasks` found missing so far, with the tasks it left out for them. */
  missingImages?(): MissingImage[];
  /** What `loadTasks` made of the SWE tasks' reference runs so far (the environment-broken ones are left out). */
  references?(): RunReference[];
}
