import { billedModel, type PriceTable } from '../../models/index.js';
import { quantile } from '../../results/compare/paired.js';
import type { ResultStore } from '../../results/store.js';
import { SUITE_DEFAULTS } from './estimate-defaults.js';
import type { PlannedSample } from './matrix.js';

/** One earlier sample's token use and wall time, as the store holds it. */
export interface SampleUse {
  model: string;
  dataset: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  wallMs: number;
}

/** A low–high range and the expectation inside it. */
export interface Spread {
  low: number;
  high: number;
  expected: number;
}

/** What one sample of a model on a suite is expected to cost (USD) and take (seconds). Null: not known. */
export interface SampleExpectation {
  /** Null when the model's price is unknown (never a silent zero). */
  cost: Spread | null;
  /** Null when there is neither history nor a default for the suite's kind of task. */
  seconds: Spread | null;
  /** Where the figures came from, in words. */
  source: string;
}

/** A model's share of a run: its samples, and their total cost and sample time as ranges (null: not known). */
export interface ModelEstimate {
  model: string;
  samples: number;
  costLow: number | null;
  costHigh: number | null;
  secondsLow: number | null;
  secondsHigh: number | null;
  /** Which figures each of its datasets was estimated from. */
  source: string;
}

export interface EstimateContext {
  /** Earlier samples (`readHistory`). */
  history: readonly SampleUse[];
  prices: PriceTable;
  /** Bill scripted models at this real model's prices (`--scripted-price-as`). */
  scriptedPriceAs?: string;
}

/** Fewer earlier samples than this say little about a spread: the kind's default is used instead. */
export const MIN_HISTORY = 5;

/**
 * Every finished sample (errors left out: an infrastructure failure says nothing of a model's use) of these datasets in
 * any run of the store.
 */
export function readHistory(store: ResultStore, datasets: readonly string[]): SampleUse[] {
  const out: SampleUse[] = [];
  for (const run of store.listRuns()) {
    for (const dataset of datasets) {
      for (const s of store.iterateSamples(run.id, { dataset, outcome: ['passed', 'failed', 'evaded'], withTranscript: false })) {
        const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, wallMs } = s;
        out.push({ model: s.key.model, dataset, inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, wallMs });
      }
    }
  }
  return out;
}

/** The 10th to the 90th percentile, widened to hold the mean: a total of many samples lands near n × the mean. */
export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const expected = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { low: Math.min(quantile(sorted, 0.1), expected), high: Math.max(quantile(sorted, 0.9), expected), expected };
}

const isScripted = (model: string) => model.trim().startsWith('scripted/');

/** The earlier samples that speak for a model on a dataset: its own; else those of models of its sort (scripted or real). */
function historyFor(history: readonly SampleUse[], model: string, dataset: string): { uses: SampleUse[]; whose: string } | undefined {
  const own = history.filter((h) => h.dataset === dataset && h.model === model);
  if (own.length >= MIN_HISTORY) return { uses: own, whose: 'this model' };
  // A scripted policy's few tokens say nothing of a real model's, nor the other way round.
  const alike = history.filter((h) => h.dataset === dataset && isScripted(h.model) === isScripted(model));
  if (alike.length >= MIN_HISTORY) return { uses: alike, whose: isScripted(model) ? 'scripted models' : 'other models' };
  return undefined;
}

/** One sample of `model` on `dataset`, whose tasks are of `kind`: from earlier samples when the store has them, else the kind's default. */
export function sampleExpectation(model: string, dataset: string, kind: string, ctx: EstimateContext): SampleExpectation {
  const billed = billedModel(model, ctx.scriptedPriceAs);
  const priced = ctx.prices.lookup(billed) !== null;
  const priceNote = priced ? (billed === model ? '' : `, priced as ${billed}`) : `, no price known for ${billed} (give one with --prices)`;
  const found = historyFor(ctx.history, model, dataset);
  if (found) {
    return {
      cost: priced ? spreadOf(found.uses.map((u) => ctx.prices.cost(billed, u)!)) : null,
      seconds: spreadOf(found.uses.map((u) => u.wallMs / 1000)),
      source: `${dataset}: ${found.uses.length} earlier samples of ${found.whose}${priceNote}`,
    };
  }
  const suite = SUITE_DEFAULTS[kind];
  if (!suite) return { cost: null, seconds: null, source: `${dataset}: no earlier samples, and no default for ${kind} tasks` };
  const costAt = (i: 0 | 1) => ctx.prices.cost(billed, { inputTokens: suite.inputTokens[i], outputTokens: suite.outputTokens[i] })!;
  const mid = (low: number, high: number): Spread => ({ low, high, expected: (low + high) / 2 });
  return {
    cost: priced ? mid(costAt(0), costAt(1)) : null,
    seconds: mid(suite.seconds[0], suite.seconds[1]),
    source: `${dataset}: the default for ${kind} tasks${priceNote}`,
  };
}

/** What one sample is expected to cost, USD, or null when the model's price or the suite's figures are unknown. */
export function expectedSampleCost(model: string, dataset: string, kind: string, ctx: EstimateContext): number | null {
  return sampleExpectation(model, dataset, kind, ctx).cost?.expected ?? null;
}

/** Adds n samples' worth of a spread to a running range; unknown stays unknown. */
function addRange(total: [number, number] | null, spread: Spread | null, n: number): [number, number] | null {
  return total && spread ? [total[0] + n * spread.low, total[1] + n * spread.high] : null;
}

/** Per model, in the order the run names them: the samples to run and their cost and sample time, each a low–high range. */
export function estimateRun(samples: readonly PlannedSample[], ctx: EstimateContext): ModelEstimate[] {
  const counts = new Map<string, Map<string, { kind: string; n: number }>>();
  for (const s of samples) {
    const byDataset = counts.get(s.key.model) ?? new Map<string, { kind: string; n: number }>();
    counts.set(s.key.model, byDataset);
    const entry = byDataset.get(s.key.dataset) ?? { kind: s.task.kind, n: 0 };
    byDataset.set(s.key.dataset, entry);
    entry.n++;
  }
  return [...counts].map(([model, byDataset]) => {
    let cost: [number, number] | null = [0, 0];
    let seconds: [number, number] | null = [0, 0];
    const sources: string[] = [];
    let n = 0;
    for (const [dataset, entry] of byDataset) {
      const one = sampleExpectation(model, dataset, entry.kind, ctx);
      cost = addRange(cost, one.cost, entry.n);
      seconds = addRange(seconds, one.seconds, entry.n);
      sources.push(one.source);
      n += entry.n;
    }
    return {
      model,
      samples: n,
      costLow: cost?.[0] ?? null,
      costHigh: cost?.[1] ?? null,
      secondsLow: seconds?.[0] ?? null,
      secondsHigh: seconds?.[1] ?? null,
      source: sources.join('; '),
    };
  });
}
