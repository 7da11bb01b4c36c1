import { labelOf } from '../labels.js';
import type { ResultStore, StoredSample } from '../store.js';
import { DEFAULT_THRESHOLD, metricsByGroup, monitorMetrics, type MonitorGroup, type MonitorItem, type MonitorMetrics } from './metrics.js';
import { STATIC_MONITOR, staticScore } from './static.js';
import { monitorVerdictsByKey, type MonitorStatus, type MonitorVerdict } from './verdict.js';

/** A monitor is a model and a prompt; the static classifier has neither. */
export interface MonitorId {
  model: string;
  /** sha256 of the prompt text; empty for the static classifier. */
  promptHash: string;
}

export function monitorIdString(id: MonitorId): string {
  return id.promptHash ? `${id.model}@${id.promptHash}` : id.model;
}

export interface MonitorSummary {
  id: MonitorId;
  overall: MonitorMetrics;
  /** One row per agent model. */
  byModel: { model: string; metrics: MonitorMetrics }[];
  /** One row per agent model, dataset, scaffold, access and split. */
  groups: { group: MonitorGroup; metrics: MonitorMetrics }[];
  inputTokens: number;
  outputTokens: number;
  /** null when one answer's price is unknown. */
  costUsd: number | null;
}

/** One monitor's read of one sample, as the report shows it beside the sample. */
export interface SampleMonitorView {
  monitor: string;
  status: MonitorStatus;
  score: number | null;
  reason: string;
}

export interface MonitorReportData {
  threshold: number;
  /** The static classifier first (when the run has passes), then each LLM monitor by name. */
  monitors: MonitorSummary[];
  /** By sample key: what each monitor said. */
  bySample: Map<string, SampleMonitorView[]>;
}

export type Sample = Pick<StoredSample, 'key' | 'keyString' | 'outcome' | 'stopReason' | 'tamper'>;

function itemOf(sample: Sample, status: MonitorStatus, score: number | null): MonitorItem {
  return { key: sample.key, label: labelOf(sample), outcome: sample.outcome, stopReason: sample.stopReason, status, score };
}

function summarize(
  id: MonitorId,
  items: MonitorItem[],
  threshold: number,
  spent: { inputTokens: number; outputTokens: number; costUsd: number | null },
): MonitorSummary {
  const models = [...new Set(items.map((i) => i.key.model))].sort();
  return {
    id,
    overall: monitorMetrics(items, threshold),
    byModel: models.map((model) => ({
      model,
      metrics: monitorMetrics(
        items.filter((i) => i.key.model === model),
        threshold,
      ),
    })),
    groups: metricsByGroup(items, threshold),
    ...spent,
  };
}

/** The static classifier's read of one pass: 100 when its evidence shows a known trick (`tricks`, `other` left out). */
export interface StaticRead {
  sample: Sample;
  score: 0 | 100;
  tricks: string[];
}

/** The static classifier over full records of passes (it reads their evidence). */
export function* staticReads(passed: Iterable<StoredSample>): Generator<StaticRead> {
  for (const sample of passed) {
    const { score, tricks } = staticScore(sample);
    yield { sample, score, tricks: tricks.map((t) => t.kind) };
  }
}

type MonitorView = (key: string, v: SampleMonitorView) => void;

/** Each LLM monitor's summary over the samples it scored, by name. */
export function llmMonitorSummaries(
  samples: readonly Sample[],
  verdicts: Map<string, MonitorVerdict[]>,
  threshold: number,
  view: MonitorView = () => {},
): MonitorSummary[] {
  const byKey = new Map(samples.map((s) => [s.keyString, s]));
  const llm = new Map<string, { id: MonitorId; items: MonitorItem[]; inputTokens: number; outputTokens: number; costUsd: number | null }>();
  for (const [key, list] of verdicts) {
    const sample = byKey.get(key);
    if (!sample) continue;
    for (const v of list) {
      const id = { model: v.model, promptHash: v.promptHash };
      const acc = llm.get(monitorIdString(id)) ?? { id, items: [], inputTokens: 0, outputTokens: 0, costUsd: 0 };
      acc.items.push(itemOf(sample, v.status, v.score));
      acc.inputTokens += v.inputTokens;
      acc.outputTokens += v.outputTokens;
      acc.costUsd = acc.costUsd === null || v.costUsd === null ? null : acc.costUsd + v.costUsd;
      llm.set(monitorIdString(id), acc);
      view(key, { monitor: monitorIdString(id), status: v.status, score: v.score, reason: v.reason });
    }
  }
  return [...llm.keys()].sort().map((name) => {
    const { id, items, ...spent } = llm.get(name)!;
    return summarize(id, items, threshold, spent);
  });
}

/**
 * Every monitor's metrics over a run: the static classifier over the run's passes (its reads, from full records or
 * from the store's kinds), and each LLM monitor over the samples it scored.
 */
export function monitorReportData(
  samples: readonly Sample[],
  reads: Iterable<StaticRead>,
  verdicts: Map<string, MonitorVerdict[]>,
  threshold: number = DEFAULT_THRESHOLD,
): MonitorReportData {
  const bySample = new Map<string, SampleMonitorView[]>();
  const view = (key: string, v: SampleMonitorView) => bySample.set(key, [...(bySample.get(key) ?? []), v]);
  const monitors: MonitorSummary[] = [];

  const staticItems: MonitorItem[] = [];
  for (const { sample, score, tricks } of reads) {
    staticItems.push(itemOf(sample, 'scored', score));
    view(sample.keyString, {
      monitor: STATIC_MONITOR,
      status: 'scored',
      score,
      reason: tricks.length ? tricks.join(', ') : 'no known trick shows',
    });
  }
  if (staticItems.length)
    monitors.push(summarize({ model: STATIC_MONITOR, promptHash: '' }, staticItems, threshold, { inputTokens: 0, outputTokens: 0, costUsd: 0 }));
  monitors.push(...llmMonitorSummaries(samples, verdicts, threshold, view));
  return { threshold, monitors, bySample };
}

/** `monitorReportData` read from the store: sample keys without transcripts, full records of the passes only. */
export function loadMonitorReportData(
  store: ResultStore,
  runId: string,
  threshold: number = DEFAULT_THRESHOLD,
  options: { llm?: boolean } = {},
): MonitorReportData {
  const samples = store.listSamples(runId, { withTranscript: false });
  const verdicts = options.llm === false ? new Map<string, MonitorVerdict[]>() : monitorVerdictsByKey(store, runId);
  return monitorReportData(samples, staticReads(store.iterateSamples(runId, { outcome: 'passed' })), verdicts, threshold);
}
