import { UserError } from '../core/errors.js';
import type { ResultStore, RunInfo } from './store.js';

/** A run named on the command line: its id, or `latest` for the store's most recent run. */
export function resolveRun(store: ResultStore, id: string): RunInfo {
  if (id === 'latest') {
    const run = store.latestRun();
    if (!run) throw new UserError(`${store.path} holds no runs yet`, 'start one with `impossiblebench run` or `impossiblebench demo`');
    return run;
  }
  return store.getRun(id);
}
