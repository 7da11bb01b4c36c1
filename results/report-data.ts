import { classifySample, countKinds, type KindCounts, type KindFinding } from './classify/index.js';
import type { JudgeVerdict } from './classify/judge.js';
import { verdictsByKey } from './classify/judge-run.js';
import { IMPOSSIBLE_VARIANTS, type Outcome } from '../core/record.js';
import { computeMetrics, configRows, type CellMetrics, type ConfigRow } from './metrics.js';
import { DEFAULT_THRESHOLD } from './monitor/metrics.js';
import { loadMonitorReportData, monitorReportData, type MonitorReportData } from './monitor/report-data.js';
import { monitorVerdictsByKey } from './monitor/verdict.js';
import type { ResultStore, RunInfo, StoredEvent, StoredSample } from './store.js';

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
}

/** What the Markdown report needs: metrics without transcripts, and the kinds (which read the transcripts of cheating samples only). */
export function loadReportData(store: ResultStore, runId: string, threshold: number = DEFAULT_THRESHOLD): ReportData {
  const run = store.getRun(runId);
  const cells = computeMetrics(store.iterateSamples(run.id, { withTranscript: false }));
  const kinds = countKinds(
    (function* () {
      // Transcripts are read only for the samples classified: evasions, and passes on impossible splits.
      for (const record of store.iterateSamples(run.id, { outcome: 'evaded' })) yield { record, kinds: classifySample(record) };
      for (const split of IMPOSSIBLE_VARIANTS) {
        for (const record of store.iterateSamples(run.id, { outcome: 'passed', split })) yield { record, kinds: classifySample(record) };
      }
    })(),
  );
  return {
    run,
    counts: store.outcomeCounts(run.id),
    cells,
    rows: configRows(cells),
    kinds,
    judgeCounts: countVerdicts(verdictsByKey(store, run.id)),
    monitors: loadMonitorReportData(store, run.id, threshold),
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
    samples.filter((s) => s.outcome === 'passed'),
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
    samples,
    events: store.listEvents(run.id),
    kindsById,
    verdicts,
  };
}
