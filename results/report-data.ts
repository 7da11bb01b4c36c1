import { interviewMetrics, type InterviewCell } from './interview-metrics.js';
import { classifySample, countKinds, isClassifiable, tricksOf, type KindCounts, type KindFinding } from './classify/index.js';
import type { JudgeVerdict } from './classify/judge.js';
import { verdictsByKey } from './classify/judge-run.js';
import type { Outcome } from '../core/record.js';
import { compareEveryField, type FieldComparison } from './compare/by-field.js';
import { computeMetrics, configRows, type CellMetrics, type ConfigRow } from './metrics.js';
import { DEFAULT_THRESHOLD } from './monitor/metrics.js';
import { monitorReportData, staticReads, type MonitorReportData, type StaticRead } from './monitor/report-data.js';
import { monitorVerdictsByKey } from './monitor/verdict.js';
import type { ResultStore, RunInfo, StoredEvent, StoredSample } from './store.js';
import { storedKindCounts, storedStaticReads } from './stored-kinds.js';
import { runEnvironment, type RunEnvironment } from './report-environment.js';

export interface ReportData {
  run: RunInfo;
  counts: Record<Outcome, number>;
  cells: CellMetrics[];
  rows: ConfigRow[];
  /** How the cheating and evaded samples cheated, by model. */
  kinds: KindCounts;
  /** Stored LLM judge verdicts counted by judge model and kind (`none` for answers without a category). */
  judgeCounts: Record<string, Record<string, number>>;
  /** Each monitor's rates on the run: the static classifier whenever a sample passed, and every LLM monitor that scored it. */
  monitors: MonitorReportData;
  /** The sandboxes' limits and the SWE tasks' reference runs: which were environment-broken and left out. */
  environment: RunEnvironment;
  /** What the agents said when asked once graded (`run --interview`), per cell; empty without it. */
  interviews: InterviewCell[];
}

/** Judge verdicts counted by judge model and kind. */
export function countVerdicts(verdicts: Map<string, JudgeVerdict[]>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const list of verdicts.values()) {
    for (const v of list) {
      const row = (out[v.model] ??= {});
      const kind = v.kind ?? 'none';
      row[kind] = (row[kind] ?? 0) + 1;
    }
  }
  return out;
}

export interface FullReportData extends ReportData {
  samples: StoredSample[];
  events: StoredEvent[];
  /** The kinds of each cheating or evaded sample, by sample id. */
  kindsById: Map<number, KindFinding[]>;
  /** Stored LLM judge verdicts, by sample key, the newest per judge model. */
  verdicts: Map<string, JudgeVerdict[]>;
  /** The arms of every setting the run varies, compared pair by pair on the tasks both ran. */
  comparisons: FieldComparison[];
}

/**
 * The kinds and the static classifier's reads of a run. From the store's kinds index when it has one; else one pass
 * over the passes and evasions, each transcript read once and each sample classified once for both.
 */
function kindsAndStaticReads(store: ResultStore, runId: string): { kinds: KindCounts; reads: StaticRead[] } {
  if (store.indexState().kinds) return { kinds: storedKindCounts(store.database, runId), reads: storedStaticReads(store.database, runId) };
  const classified: { record: Pick<StoredSample, 'key'>; kinds: KindFinding[] }[] = [];
  const reads: StaticRead[] = [];
  // Small pages: a page of long transcripts is what this process holds at its peak.
  for (const record of store.iterateSamples(runId, { outcome: ['passed', 'evaded'] }, 20)) {
    const tricks = tricksOf(record);
    if (isClassifiable(record)) classified.push({ record: { key: record.key }, kinds: tricks });
    if (record.outcome !== 'passed') continue;
    const named = tricks.filter((t) => t.kind !== 'other').map((t) => t.kind);
    const { key, keyString, outcome, stopReason, tamper } = record;
    reads.push({ sample: { key, keyString, outcome, stopReason, tamper }, score: named.length ? 100 : 0, tricks: named });
  }
  return { kinds: countKinds(classified), reads };
}

/** What the Markdown report needs: metrics and kinds without reading a transcript twice (or at all, with the kinds index). */
export function loadReportData(store: ResultStore, runId: string, threshold: number = DEFAULT_THRESHOLD): ReportData {
  const run = store.getRun(runId);
  const samples = store.listSamples(run.id, { withTranscript: false });
  const cells = computeMetrics(samples);
  const { kinds, reads } = kindsAndStaticReads(store, run.id);
  return {
    run,
    counts: store.outcomeCounts(run.id),
    cells,
    rows: configRows(cells),
    kinds,
    judgeCounts: countVerdicts(verdictsByKey(store, run.id)),
    monitors: monitorReportData(samples, reads, monitorVerdictsByKey(store, run.id), threshold),
    environment: runEnvironment(store, run),
    interviews: interviewMetrics(samples),
  };
}

/** Everything, transcripts included: the HTML report shows every sample. */
export function loadFullReportData(store: ResultStore, runId: string, threshold: number = DEFAULT_THRESHOLD): FullReportData {
  const run = store.getRun(runId);
  const samples = store.listSamples(run.id);
  const cells = computeMetrics(samples);
  const kindsById = new Map<number, KindFinding[]>();
  for (const s of samples) {
    const found = classifySample(s);
    if (found) kindsById.set(s.id, found);
  }
  const kinds = countKinds(samples.map((record) => ({ record, kinds: kindsById.get(record.id) ?? null })));
  const verdicts = verdictsByKey(store, run.id);
  const monitors = monitorReportData(
    samples,
    staticReads(samples.filter((s) => s.outcome === 'passed')),
    monitorVerdictsByKey(store, run.id),
    threshold,
  );
  return {
    run,
    counts: store.outcomeCounts(run.id),
    cells,
    rows: configRows(cells),
    kinds,
    judgeCounts: countVerdicts(verdicts),
    monitors,
    environment: runEnvironment(store, run),
    interviews: interviewMetrics(samples),
    samples,
    events: store.listEvents(run.id),
    kindsById,
    verdicts,
    comparisons: compareEveryField(samples),
  };
}
