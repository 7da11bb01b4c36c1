/**
 * The whole run's budget (`--max-run-cost`): a sample starts only while the spend so far, plus what the samples in
 * flight and this one are expected to cost, stays within it. Samples in flight are never cut: a run cut mid-sample
 * would keep only its short samples, and bias the rates toward them.
 */

import type { Outcome } from '../../core/record.js';

/** A sample's cost as the store or a finished try gives it; null: the price of its model is unknown. */
export interface SpentSample {
  model: string;
  outcome: Outcome;
  costUsd: number | null;
  /** Finished for good (not an error to be tried again): it counts in the means the estimate uses. */
  final: boolean;
}

/** Sums and counts of the finished samples' known costs, by model and over all. */
export class CostMeans {
  private readonly byModel = new Map<string, { sum: number; n: number }>();
  private readonly all = { sum: 0, n: 0 };

  add(model: string, costUsd: number): void {
    const own = this.byModel.get(model) ?? { sum: 0, n: 0 };
    own.sum += costUsd;
    own.n++;
    this.byModel.set(model, own);
    this.all.sum += costUsd;
    this.all.n++;
  }

  /** The mean cost of the model's finished samples, or undefined before one has finished. */
  of(model: string): number | undefined {
    const own = this.byModel.get(model);
    return own ? own.sum / own.n : undefined;
  }

  /** The mean cost of every finished sample, or undefined before one has finished. */
  overall(): number | undefined {
    return this.all.n > 0 ? this.all.sum / this.all.n : undefined;
  }
}

/** What a sample in flight is expected to cost, from what the run knows now; replaceable by a better estimator. */
export type SampleCostEstimator = (model: string, means: CostMeans, maxCostUsd: number | undefined) => number;

/**
 * The mean cost of the run's finished samples of the same model, else of all models; before any has finished, the
 * per-sample limit when there is one, else 0, so the first wave can start.
 */
export const expectedSampleCost: SampleCostEstimator = (model, means, maxCostUsd) => means.of(model) ?? means.overall() ?? maxCostUsd ?? 0;

/** Why the budget stopped the run from starting samples. */
export type BudgetStop = 'budget' | 'unknown_cost';

export interface BudgetOptions {
  limitUsd: number;
  /** The per-sample limit (`--max-cost`), the estimate before any sample has finished. */
  maxCostUsd?: number;
  /** The run's samples already in the store (earlier sittings). */
  prior?: Iterable<SpentSample>;
  estimate?: SampleCostEstimator;
}

/** The run's spend and its samples in flight; says whether the next sample may start. */
export class RunBudget {
  readonly limitUsd: number;
  /** Dollars spent by the run so far, every stored try of every sitting. */
  spentUsd = 0;
  /** Set once a sample was refused: no other starts after it. */
  stoppedBy: BudgetStop | undefined;
  private readonly means = new CostMeans();
  private readonly inFlight = new Map<object, string>();
  private readonly maxCostUsd: number | undefined;
  private readonly estimate: SampleCostEstimator;

  constructor(options: BudgetOptions) {
    this.limitUsd = options.limitUsd;
    this.maxCostUsd = options.maxCostUsd;
    this.estimate = options.estimate ?? expectedSampleCost;
    for (const s of options.prior ?? []) this.spend(s);
  }

  /** What the samples in flight are expected to cost now. */
  expectedInFlight(): number {
    let sum = 0;
    for (const model of this.inFlight.values()) sum += this.estimate(model, this.means, this.maxCostUsd);
    return sum;
  }

  /**
   * Whether `sample` (of `model`) may start: the spend, the samples in flight and it expected within the budget. A no
   * is final: the run starts nothing more, so it never skips ahead to cheaper samples and bias what it holds.
   */
  admit(sample: object, model: string): boolean {
    if (this.stoppedBy) return false;
    const next = this.estimate(model, this.means, this.maxCostUsd);
    if (this.spentUsd + this.expectedInFlight() + next > this.limitUsd) {
      this.stoppedBy = 'budget';
      return false;
    }
    this.inFlight.set(sample, model);
    return true;
  }

  /**
   * A try of a sample ended and is stored: its cost is spent, and a final one counts in the means. A model answer of
   * unknown cost leaves the budget unknowable, so no sample starts after it; an infrastructure error costs nothing known.
   */
  spend(s: SpentSample): void {
    if (s.costUsd === null) {
      if (s.outcome !== 'error') this.stoppedBy ??= 'unknown_cost';
      return;
    }
    this.spentUsd += s.costUsd;
    if (s.final) this.means.add(s.model, s.costUsd);
  }

  /** The sample is no longer in flight (stored, interrupted or thrown). */
  release(sample: object): void {
    this.inFlight.delete(sample);
  }
}
