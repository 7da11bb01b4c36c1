import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { Outcome } from '../core/record.js';
import { sampleKeyString, type ResultStore } from '../results/store.js';
import type { Experiment } from './config.js';
import { expandMatrix, type DatasetTasks, type PlannedSample } from './matrix.js';
import { createProgress, type ProgressOptions, Tally } from './progress.js';
import type { SandboxSlot } from '../docker/types.js';
import { executeSample, type SampleServices } from './sample.js';
import { schedule } from './scheduler.js';
import { UserError } from '../core/errors.js';

/**
 * Loads one dataset's tasks for the experiment's splits, making (seeded) impossible variants where
 * the dataset has none; only the tasks the experiment picks (limit, shuffle) need variants.
 */
export type TaskLoader = (dataset: string, experiment: Experiment) => Promise<DatasetTasks>;

export interface ExperimentRun {
  experiment: Experiment;
  store: ResultStore;
  /** An existing run of the store: resume it. */
  runId: string;
  services: SampleServices;
  loadTasks: TaskLoader;
  /** Removes containers an earlier process of this run left behind; returns how many. */
  removeLeftovers?: (runId: string) => Promise<number>;
  signal: AbortSignal;
  log: Logger;
  progress?: ProgressOptions;
  /** How long a running agent gets to return after an interrupt before its sandbox is removed. */
  abortGraceMs?: number;
}

export interface RunSummary {
  runId: string;
  status: 'finished' | 'interrupted';
  /** Samples in the matrix. */
  total: number;
  /** Finished before this process started. */
  resumed: number;
  /** Ended in this process (an error tried again counts once). */
  ranHere: number;
  /** Not finished: interrupted or never started. */
  unfinished: number;
  counts: Record<Outcome, number>;
  costUsd: number;
  unknownCost: number;
  wallMs: number;
}

/** The fewest errors in a row that stop a run (more with more samples in flight). */
const BREAKER_MIN = 8;
/** How far ahead of the run's order a sample may be started when one nearer the front would wait for its engine. */
const PICK_WINDOW = 1024;

/** Splits of each dataset the matrix asks for: every dataset gets every split. */
async function loadAll(experiment: Experiment, loadTasks: TaskLoader, log: Logger): Promise<Map<string, DatasetTasks>> {
  const out = new Map<string, DatasetTasks>();
  for (const dataset of experiment.datasets) {
    const tasks = await loadTasks(dataset, experiment);
    const sizes = Object.fromEntries([...tasks].map(([split, list]) => [split, list.length]));
    log.info({ dataset, sizes }, 'tasks loaded');
    out.set(dataset, tasks);
  }
  return out;
}

/**
 * Runs (or resumes) one experiment into the store: the samples the store does not hold yet are
 * run under the concurrency limit, each stored in one transaction as it ends; an `error` goes
 * back to the queue until it has had `retries` more tries. On interrupt no new sample starts,
 * running ones are cancelled and left unfinished, and the run is marked interrupted.
 */
export async function runExperiment(opts: ExperimentRun): Promise<RunSummary> {
  const { experiment, store, runId, log } = opts;
  // Every sample in flight listens on the run's signal (and so does its agent loop): no leak, just many.
  setMaxListeners(0, opts.signal);
  const startedAt = Date.now();
  const maxErrors = experiment.retries + 1;

  if (opts.removeLeftovers) {
    const removed = await opts.removeLeftovers(runId);
    if (removed > 0) {
      log.info({ removed }, 'removed containers left by an earlier process of this run');
      store.addEvent(runId, 'leftovers_removed', { containers: removed });
    }
  }

  const planned = expandMatrix(experiment, await loadAll(experiment, opts.loadTasks, log));
  const plannedKeys = new Map(planned.map((s) => [sampleKeyString(s.key), s]));

  // What the store already holds for this matrix: finished samples, and errors out of tries.
  const tallyInit: { outcome: Outcome; cost: number | null }[] = [];
  const errorCounts = store.errorCounts(runId);
  for (const stored of store.iterateSamples(runId, { withTranscript: false })) {
    if (!plannedKeys.has(stored.keyString)) continue;
    if (stored.outcome !== 'error' || stored.errorCount >= maxErrors) tallyInit.push({ outcome: stored.outcome, cost: stored.costUsd });
  }
  const finished = store.finishedKeys(runId);
  const todo = planned.filter((s) => {
    const key = sampleKeyString(s.key);
    return !finished.has(key) && (errorCounts.get(key) ?? 0) < maxErrors;
  });

  const resumed = tallyInit.length;
  const fresh = new Tally(planned.length, resumed);
  for (const t of tallyInit) fresh.restore(t.outcome, t.cost);

  store.addEvent(runId, resumed > 0 || finished.size > 0 ? 'resume' : 'start', { total: planned.length, todo: todo.length, resumed });
  opts.services.samplesPlanned?.(todo.map((s) => s.task));
  log.info({ total: planned.length, todo: todo.length, resumed }, 'run starting');

  const progress = createProgress(fresh, opts.progress);
  let ranHere = 0;
  // A dead engine or API would otherwise turn every remaining sample into an error (and use up its
  // tries): after this many errors in a row, no new sample starts and the run stops, resumable.
  const breakerLimit = Math.max(BREAKER_MIN, 2 * experiment.concurrency);
  let errorsInRow = 0;
  let lastError = '';
  // Set when no sample can run anywhere any more (every engine gone): the run stops at once, resumable.
  let stoppedBy: string | undefined;
  const lostEngines = new Set<string>();
  const breaker = new AbortController();
  const stopNew = AbortSignal.any([opts.signal, breaker.signal]);
  const onAbort = () => progress.note('interrupt: no new samples; cancelling the running ones (Ctrl-C again to quit at once)');
  opts.signal.addEventListener('abort', onAbort, { once: true });
  let failed: unknown;
  // Where sandboxes go by image (a pool), the next sample to start is the first that has a slot free now, so samples
  // waiting for a busy engine do not keep the others idle; the run's order holds otherwise.
  const reserve = opts.services.reserveSandbox?.bind(opts.services);
  const reserved = new Map<PlannedSample, SandboxSlot>();
  const pick = (queue: readonly PlannedSample[], from: number): number => {
    // A window, not the whole queue: enough tasks ahead to reach every engine, at a bounded cost per sample.
    for (let i = from; i < Math.min(queue.length, from + PICK_WINDOW); i++) {
      const slot = reserve?.(queue[i]!.task);
      if (slot) {
        reserved.set(queue[i]!, slot);
        return i;
      }
    }
    return from;
  };
  try {
    await schedule(
      todo,
      async (sample: PlannedSample) => {
        const slot = reserved.get(sample);
        reserved.delete(sample);
        const end = await executeSample(
          sample,
          {
            runId,
            experiment,
            services: opts.services,
            signal: opts.signal,
            log,
            ...(opts.abortGraceMs !== undefined ? { abortGraceMs: opts.abortGraceMs } : {}),
          },
          slot,
        ).finally(() => slot?.release());
        if (end.kind === 'interrupted') return 'done';
        if (end.kind === 'stopped') {
          if (!breaker.signal.aborted) {
            stoppedBy = end.reason;
            breaker.abort();
            progress.note(`stopping: ${end.reason}`);
          }
          return 'done';
        }
        // An engine of a pool went away: said once, in the log, the run's events and the progress line.
        if (end.lostEngine !== undefined && !lostEngines.has(end.lostEngine)) {
          lostEngines.add(end.lostEngine);
          log.warn({ engine: end.lostEngine }, 'container engine gone; its samples are tried again on the other engines');
          store.addEvent(runId, 'engine_lost', { engine: end.lostEngine });
          progress.note(`engine ${end.lostEngine} is gone; its samples are tried again on the other engines`);
        }
        const stored = store.saveSample(runId, end.record);
        // An error another try would only repeat (a missing image, a test patch that does not apply) is recorded once.
        const permanent = end.permanent === true;
        const retry = stored.outcome === 'error' && !permanent && stored.errorCount < maxErrors && !opts.signal.aborted;
        if (stored.outcome === 'error') {
          const event = retry ? 'retry' : permanent ? 'gave_up_certain' : 'gave_up';
          store.addEvent(runId, event, { error: stored.error, errorCount: stored.errorCount }, stored.keyString);
          const note = retry ? 'error; will try again' : permanent ? 'error that another try would repeat; not tried again' : 'error; out of tries';
          log.warn({ sample: sample.id, error: stored.error, errorCount: stored.errorCount }, note);
        }
        // One task's certain failure says nothing of the engine or the API: only other errors trip the breaker.
        if (stored.outcome === 'error' && !permanent) {
          lastError = stored.error ?? 'unknown error';
          if (++errorsInRow >= breakerLimit && !breaker.signal.aborted) {
            breaker.abort();
            progress.note(`stopping: ${errorsInRow} samples in a row failed outside the model (last: ${lastError})`);
          }
        } else if (stored.outcome !== 'error') errorsInRow = 0;
        fresh.add(stored.outcome, stored.costUsd, !retry);
        if (!retry) ranHere++;
        progress.update();
        if (!retry) await opts.services.sampleFinished?.(sample.task);
        return retry ? 'again' : 'done';
      },
      { concurrency: experiment.concurrency, signal: stopNew, ...(reserve ? { pick } : {}) },
    );
  } catch (err) {
    failed = err;
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    progress.stop();
  }

  const interrupted = opts.signal.aborted;
  if (stoppedBy !== undefined && !interrupted && failed === undefined) {
    store.finishRun(runId, 'interrupted');
    store.addEvent(runId, 'stopped_no_sandboxes', { reason: stoppedBy });
    log.error({ reason: stoppedBy }, 'run stopped: no sandbox can start');
    throw new UserError(
      `run ${runId} stopped: ${stoppedBy}`,
      `start the engines again (\`impossiblebench doctor\`), then resume: impossiblebench run --store ${store.path} --run-id ${runId}`,
    );
  }
  if (breaker.signal.aborted && !interrupted && failed === undefined) {
    store.finishRun(runId, 'interrupted');
    store.addEvent(runId, 'stopped_on_errors', { errorsInRow, lastError });
    log.error({ errorsInRow, lastError }, 'run stopped: too many errors in a row');
    throw new UserError(
      `run ${runId} stopped after ${errorsInRow} samples in a row failed outside the model (last: ${lastError})`,
      `fix the cause (\`impossiblebench doctor\`), then resume: impossiblebench run --store ${store.path} --run-id ${runId}`,
    );
  }
  if (failed !== undefined) {
    store.finishRun(runId, 'failed');
    store.addEvent(runId, 'failed', { error: String(failed) });
    log.error({ err: failed }, 'run failed');
    throw failed;
  }
  const status = interrupted ? 'interrupted' : 'finished';
  store.finishRun(runId, status);
  store.addEvent(runId, status, { ranHere, counts: fresh.counts });
  log.info({ status, ranHere, counts: fresh.counts }, 'run ended');
  return {
    runId,
    status,
    total: planned.length,
    resumed,
    ranHere,
    unfinished: planned.length - fresh.done,
    counts: { ...fresh.counts },
    costUsd: fresh.costUsd,
    unknownCost: fresh.unknownCost,
    wallMs: Date.now() - startedAt,
  };
}
