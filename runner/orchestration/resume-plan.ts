import type { Logger } from 'pino';
import { spentUsd, type Outcome } from '../../core/record.js';
import { sampleKeyString, type ResultStore } from '../../results/store.js';
import type { Experiment } from '../settings/config.js';
import { expandMatrix, type DatasetTasks, type PlannedSample } from './matrix.js';
import { Tally } from '../output/progress.js';
import type { SpentSample } from './budget.js';

/** The run's matrix and what of it is left to run. */
export interface RunPlan {
  planned: PlannedSample[];
  todo: PlannedSample[];
  /** Counts of what the store already holds, which progress starts from. */
  tally: Tally;
  /** Samples finished before this process started. */
  resumed: number;
  /** Every sample the store holds for the run, with its cost: what earlier sittings spent. */
  prior: SpentSample[];
}

/** The planned samples a run still has to run: neither finished nor out of tries (`maxErrors` errors each) in the store. */
export function samplesLeft(
  planned: readonly PlannedSample[],
  store: Pick<ResultStore, 'errorCounts' | 'finishedKeys'>,
  runId: string,
  maxErrors: number,
): PlannedSample[] {
  const errorCounts = store.errorCounts(runId);
  const finished = store.finishedKeys(runId);
  return planned.filter((s) => {
    const key = sampleKeyString(s.key);
    return !finished.has(key) && (errorCounts.get(key) ?? 0) < maxErrors;
  });
}

/**
 * Plans the matrix over the loaded tasks and takes out what the store already holds for it: finished samples, and
 * errors out of tries (`maxErrors` tries each). Records the run's start (or resume).
 */
export function planRun(experiment: Experiment, tasks: Map<string, DatasetTasks>, store: ResultStore, runId: string, log: Logger): RunPlan {
  for (const [dataset, splits] of tasks) {
    log.info({ dataset, sizes: Object.fromEntries([...splits].map(([split, list]) => [split, list.length])) }, 'tasks loaded');
  }
  const maxErrors = experiment.retries + 1;
  const planned = expandMatrix(experiment, tasks);
  const plannedKeys = new Set(planned.map((s) => sampleKeyString(s.key)));
  const held: { outcome: Outcome; cost: number | null }[] = [];
  const prior: SpentSample[] = [];
  for (const stored of store.iterateSamples(runId, { withTranscript: false })) {
    const final = stored.outcome !== 'error' || stored.errorCount >= maxErrors;
    prior.push({ model: stored.key.model, outcome: stored.outcome, costUsd: spentUsd(stored), final });
    if (!plannedKeys.has(stored.keyString)) continue;
    if (final) held.push({ outcome: stored.outcome, cost: spentUsd(stored) });
  }
  const finished = store.finishedKeys(runId);
  const todo = samplesLeft(planned, store, runId, maxErrors);
  const resumed = held.length;
  const tally = new Tally(planned.length, resumed);
  for (const t of held) tally.restore(t.outcome, t.cost);
  store.addEvent(runId, resumed > 0 || finished.size > 0 ? 'resume' : 'start', { total: planned.length, todo: todo.length, resumed });
  log.info({ total: planned.length, todo: todo.length, resumed }, 'run starting');
  return { planned, todo, tally, resumed, prior };
}
