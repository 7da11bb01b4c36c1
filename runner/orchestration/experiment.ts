import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { ResultStore } from '../../results/store.js';
import type { SandboxSlot } from '../../docker/types.js';
import { RunBreaker } from './breaker.js';
import type { Experiment } from '../settings/config.js';
import type { DatasetTasks, PlannedSample } from './matrix.js';
import { createProgress, type ProgressDisplay, type ProgressOptions } from '../output/progress.js';
import { planRun, type RunPlan } from './resume-plan.js';
import { retryStored } from './retry.js';
import { endRun, type RunSummary } from './run-end.js';
import { executeSample, type SampleEnd, type SampleServices } from './sample.js';
import { schedule } from './scheduler.js';

export type { RunSummary } from './run-end.js';

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
  /** Every dataset's tasks, loaded once before the run. */
  tasks: Map<string, DatasetTasks>;
  signal: AbortSignal;
  log: Logger;
  progress?: ProgressOptions;
  /** How long a running agent gets to return after an interrupt before its sandbox is removed. */
  abortGraceMs?: number;
}

/** How far ahead of the run's order a sample may be started when one nearer the front would wait for its engine. */
const PICK_WINDOW = 1024;

/**
 * Where sandboxes go by image (a pool), the next sample to start is the first that has a slot free now, so samples
 * waiting for a busy engine do not keep the others idle; the run's order holds otherwise.
 */
function slotPicker(services: SampleServices) {
  const reserve = services.reserveSandbox?.bind(services);
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
  const take = (sample: PlannedSample): SandboxSlot | undefined => {
    const slot = reserved.get(sample);
    reserved.delete(sample);
    return slot;
  };
  return { take, ...(reserve ? { pick } : {}) };
}

/** What the schedule shares while it runs: the plan's tally, the breaker, the progress line. */
interface Running {
  opts: ExperimentRun;
  plan: RunPlan;
  breaker: RunBreaker;
  progress: ProgressDisplay;
  lostEngines: Set<string>;
  ranHere: number;
}

/** Stores one try of a sample, counts it, and says whether it goes back to the queue. */
async function settle(run: Running, sample: PlannedSample, end: SampleEnd): Promise<'done' | 'again'> {
  const { store, runId, log, signal, services } = run.opts;
  if (end.kind === 'interrupted') return 'done';
  if (end.kind === 'stopped') {
    const note = run.breaker.noSandboxes(end.reason);
    if (note) run.progress.note(note);
    return 'done';
  }
  // An engine of a pool went away: said once, in the log, the run's events and the progress line.
  if (end.lostEngine !== undefined && !run.lostEngines.has(end.lostEngine)) {
    run.lostEngines.add(end.lostEngine);
    log.warn({ engine: end.lostEngine }, 'container engine gone; its samples are tried again on the other engines');
    store.addEvent(runId, 'engine_lost', { engine: end.lostEngine });
    run.progress.note(`engine ${end.lostEngine} is gone; its samples are tried again on the other engines`);
  }
  const stored = store.saveSample(runId, end.record);
  const permanent = end.permanent === true;
  const maxErrors = run.opts.experiment.retries + 1;
  const retry = retryStored(stored, { permanent, maxErrors, interrupted: signal.aborted, store, runId, log, sampleId: sample.id });
  const tripped = run.breaker.count(stored.outcome, stored.error, permanent);
  if (tripped) run.progress.note(tripped);
  run.plan.tally.add(stored.outcome, stored.costUsd, !retry);
  if (!retry) run.ranHere++;
  run.progress.update();
  if (!retry) await services.sampleFinished?.(sample.task);
  return retry ? 'again' : 'done';
}

/** Runs the samples left under the concurrency limit until they are done, the run is interrupted or the breaker trips. */
async function runSamples(run: Running): Promise<unknown> {
  const { opts } = run;
  const slots = slotPicker(opts.services);
  const ctx = {
    runId: opts.runId,
    experiment: opts.experiment,
    services: opts.services,
    signal: opts.signal,
    log: opts.log,
    ...(opts.abortGraceMs !== undefined ? { abortGraceMs: opts.abortGraceMs } : {}),
  };
  const onAbort = () => run.progress.note('interrupt: no new samples; cancelling the running ones (Ctrl-C again to quit at once)');
  opts.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await schedule(
      run.plan.todo,
      async (sample: PlannedSample) => {
        const slot = slots.take(sample);
        const end = await executeSample(sample, ctx, slot).finally(() => slot?.release());
        return settle(run, sample, end);
      },
      {
        concurrency: opts.experiment.concurrency,
        signal: AbortSignal.any([opts.signal, run.breaker.signal]),
        ...(slots.pick ? { pick: slots.pick } : {}),
      },
    );
    return undefined;
  } catch (err) {
    return err;
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    run.progress.stop();
  }
}

/**
 * Runs (or resumes) one experiment into the store: plan the matrix over the loaded tasks, run the samples the store
 * does not hold yet under the concurrency limit, each stored in one transaction as it ends (an `error` goes back to
 * the queue until it has had `retries` more tries), and end the run. On interrupt no new sample starts, running ones
 * are cancelled and left unfinished, and the run is marked interrupted.
 */
export async function runExperiment(opts: ExperimentRun): Promise<RunSummary> {
  // Every sample in flight listens on the run's signal (and so does its agent loop): no leak, just many.
  setMaxListeners(0, opts.signal);
  const startedAt = Date.now();
  const plan = planRun(opts.experiment, opts.tasks, opts.store, opts.runId, opts.log);
  opts.services.samplesPlanned?.(plan.todo.map((s) => s.task));
  const run: Running = {
    opts,
    plan,
    breaker: new RunBreaker(opts.experiment.concurrency),
    progress: createProgress(plan.tally, opts.progress),
    lostEngines: new Set(),
    ranHere: 0,
  };
  const failed = await runSamples(run);
  const end = { interrupted: opts.signal.aborted, breaker: run.breaker, ranHere: run.ranHere, startedAt };
  return endRun(opts.store, opts.runId, plan, failed === undefined ? end : { ...end, failed }, opts.log);
}
