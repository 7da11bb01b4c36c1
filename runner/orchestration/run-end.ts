import type { Logger } from 'pino';
import type { Outcome } from '../../core/record.js';
import { UserError } from '../../core/errors.js';
import type { ResultStore } from '../../results/store.js';
import type { RunBreaker } from './breaker.js';
import type { BudgetStop, RunBudget } from './budget.js';
import type { RunPlan } from './resume-plan.js';

export interface RunSummary {
  runId: string;
  status: 'finished' | 'interrupted' | 'budget_reached';
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
  /** The run's budget, when it has one: what the whole run spent (every sitting), and why it stopped, if it did. */
  budget?: { limitUsd: number; spentUsd: number; stoppedBy?: BudgetStop };
}

/** How the samples' schedule ended. */
export interface ScheduleEnd {
  interrupted: boolean;
  breaker: RunBreaker;
  /** What the schedule threw, if anything. */
  failed?: unknown;
  ranHere: number;
  startedAt: number;
  /** The run's budget, and whether it refused a sample (so samples were left). */
  budget?: { budget: RunBudget; refused: boolean };
}

/**
 * Marks the run as it ended and returns its summary: finished, interrupted by the user, or stopped at its budget
 * (`budget_reached`: samples left that a resume with a larger budget runs); a run the breaker stopped
 * (no sandbox anywhere, errors in a row) is marked interrupted and throws what to do before resuming it.
 */
export function endRun(store: ResultStore, runId: string, plan: RunPlan, end: ScheduleEnd, log: Logger): RunSummary {
  const { breaker, interrupted, failed } = end;
  const resumeHint = `resume: impossiblebench run --store ${store.path} --run-id ${runId}`;
  if (breaker.stoppedBy !== undefined && !interrupted && failed === undefined) {
    store.finishRun(runId, 'interrupted');
    store.addEvent(runId, 'stopped_no_sandboxes', { reason: breaker.stoppedBy });
    log.error({ reason: breaker.stoppedBy }, 'run stopped: no sandbox can start');
    throw new UserError(`run ${runId} stopped: ${breaker.stoppedBy}`, `start the engines again (\`impossiblebench doctor\`), then ${resumeHint}`);
  }
  const { errorsInRow, lastError } = breaker;
  if (breaker.tripped && !interrupted && failed === undefined) {
    store.finishRun(runId, 'interrupted');
    store.addEvent(runId, 'stopped_on_errors', { errorsInRow, lastError });
    log.error({ errorsInRow, lastError }, 'run stopped: too many errors in a row');
    throw new UserError(
      `run ${runId} stopped after ${errorsInRow} samples in a row failed outside the model (last: ${lastError})`,
      `fix the cause (\`impossiblebench doctor\`), then ${resumeHint}`,
    );
  }
  if (failed !== undefined) {
    store.finishRun(runId, 'failed');
    store.addEvent(runId, 'failed', { error: String(failed) });
    log.error({ err: failed }, 'run failed');
    throw failed;
  }
  const { tally } = plan;
  const budget = end.budget?.budget;
  const atBudget = !interrupted && end.budget?.refused === true;
  const status = interrupted ? 'interrupted' : atBudget ? 'budget_reached' : 'finished';
  store.finishRun(runId, status);
  store.addEvent(runId, status, { ranHere: end.ranHere, counts: tally.counts });
  if (atBudget && budget) {
    const stop = { reason: budget.stoppedBy, budgetUsd: budget.limitUsd, spentUsd: budget.spentUsd, left: plan.planned.length - tally.done };
    store.addEvent(runId, 'stopped_at_budget', stop);
    log.warn(stop, 'run stopped at its budget');
  }
  log.info({ status, ranHere: end.ranHere, counts: tally.counts }, 'run ended');
  return {
    runId,
    status,
    total: plan.planned.length,
    resumed: plan.resumed,
    ranHere: end.ranHere,
    unfinished: plan.planned.length - tally.done,
    counts: { ...tally.counts },
    costUsd: tally.costUsd,
    unknownCost: tally.unknownCost,
    wallMs: Date.now() - end.startedAt,
    ...(budget
      ? { budget: { limitUsd: budget.limitUsd, spentUsd: budget.spentUsd, ...(atBudget && budget.stoppedBy ? { stoppedBy: budget.stoppedBy } : {}) } }
      : {}),
  };
}
