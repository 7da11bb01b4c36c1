import { spentUsd } from '../../core/record.js';
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { ResultStore } from '../../results/store.js';
import type { SandboxSlot } from '../../docker/types.js';
import { RunBreaker } from './breaker.js';
import { RunBudget } from './budget.js';
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
  /** The whole run's budget, when `maxRunCost` sets one. */
  budget?: RunBudget;
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
  run.budget?.spend({ model: sample.key.model, outcome: stored.outcome, costUsd: spentUsd(stored), final: !retry });
  run.budget?.release(sample);
  run.plan.tally.add(stored.outcome, spentUsd(stored), !retry);
  if (!retry) run.ranHere++;
  run.progress.update();
  if (!retry) await services.sampleFinished?.(sample.task);
  return retry ? 'again' : 'done';
}

/**
 * Whether the budget lets `sample` start; on the first no, the slot picked for it is given back and the progress line
 * says why no more samples start.
 */
function budgetAdmits(run: Running, budget: RunBudget, sample: PlannedSample, slots: ReturnType<typeof slotPicker>): boolean {
  if (budget.admit(sample, sample.key.model)) return true;
  slots.take(sample)?.release();
  const why =
    budget.stoppedBy === 'unknown_cost'
      ? 'a sample of unknown cost (no price for its model) leaves the budget unknowable'
      : `$${budget.spentUsd.toFixed(4)} spent of $${budget.limitUsd} and the samples in flight would pass it`;
  // When it stopped: every sample that ends after this was in flight then.
  run.opts.store.addEvent(run.opts.runId, 'budget_stop', {
    reason: budget.stoppedBy,
    spentUsd: budget.spentUsd,
    inFlightUsd: budget.expectedInFlight(),
  });
  run.progress.note(`budget: ${why}; no new samples, the running ones finish`);
  return false;
}

/**
 * Runs the samples left under the concurrency limit until they are done, the run is interrupted, the breaker trips
 * or the budget starts no more; returns what the schedule threw, and whether the budget refused a sample.
 */
async function runSamples(run: Running): Promise<{ failed?: unknown; refused: boolean }> {
  const { opts, budget } = run;
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
    const summary = await schedule(
      run.plan.todo,
      async (sample: PlannedSample) => {
        try {
          const slot = slots.take(sample);
          const end = await executeSample(sample, ctx, slot).finally(() => slot?.release());
          return await settle(run, sample, end);
        } finally {
          budget?.release(sample);
        }
      },
      {
        concurrency: opts.experiment.concurrency,
        signal: AbortSignal.any([opts.signal, run.breaker.signal]),
        ...(slots.pick ? { pick: slots.pick } : {}),
        ...(budget ? { admit: (sample: PlannedSample) => budgetAdmits(run, budget, sample, slots) } : {}),
      },
    );
    return { refused: summary.refused };
  } catch (err) {
    return { failed: err, refused: budget?.stoppedBy !== undefined };
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    run.progress.stop();
  }
}

/** The run's budget, with what earlier sittings spent, when the experiment sets one; recorded in the run's events. */
function runBudget(opts: ExperimentRun, plan: RunPlan): RunBudget | undefined {
  const { maxRunCost, limits } = opts.experiment;
  if (maxRunCost === undefined) return undefined;
  const budget = new RunBudget({
    limitUsd: maxRunCost,
    prior: plan.prior,
    ...(limits.maxCostUsd !== undefined ? { maxCostUsd: limits.maxCostUsd } : {}),
  });
  opts.store.addEvent(opts.runId, 'budget', { budgetUsd: maxRunCost, spentUsd: budget.spentUsd });
  opts.log.info({ budgetUsd: maxRunCost, spentUsd: budget.spentUsd }, 'run budget');
  return budget;
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
  const budget = runBudget(opts, plan);
  const run: Running = {
    opts,
    plan,
    breaker: new RunBreaker(opts.experiment.concurrency),
    progress: createProgress(plan.tally, opts.progress),
    lostEngines: new Set(),
    ranHere: 0,
    ...(budget ? { budget } : {}),
  };
  const { failed, refused } = await runSamples(run);
  const end = {
    interrupted: opts.signal.aborted,
    breaker: run.breaker,
    ranHere: run.ranHere,
    startedAt,
    ...(budget ? { budget: { budget, refused } } : {}),
  };
  return endRun(opts.store, opts.runId, plan, failed === undefined ? end : { ...end, failed }, opts.log);
}
