import { launchRun, type LaunchResult } from '../orchestration/launch.js';
import { realWiring } from '../wiring/real-wiring.js';

/** A run through the real wiring, as the CLI makes it, from settings keyed like the config; quiet, never interrupted. */
export function launchWiredRun(flags: Record<string, unknown>, store: string, runId: string): Promise<LaunchResult> {
  return launchRun({
    flags,
    flagNames: {},
    store,
    runId,
    wire: (experiment, context) => realWiring(experiment, { store: context.store, say: () => {} }),
    signal: new AbortController().signal,
    say: () => {},
  });
}
