import { computeMetrics, configRows, type CellMetrics, type ConfigRow } from './metrics.js';
import type { Outcome } from './record.js';
import type { ResultStore, RunInfo, StoredEvent, StoredSample } from './store.js';

export interface ReportData {
  run: RunInfo;
  counts: Record<Outcome, number>;
  cells: CellMetrics[];
  rows: ConfigRow[];
}

export interface FullReportData extends ReportData {
  samples: StoredSample[];
  events: StoredEvent[];
}

/** What the Markdown report needs: metrics only, read without transcripts. */
export function loadReportData(store: ResultStore, runId: string): ReportData {
  const run = store.getRun(runId);
  const cells = computeMetrics(store.iterateSamples(run.id, { withTranscript: false }));
  return { run, counts: store.outcomeCounts(run.id), cells, rows: configRows(cells) };
}

/** Everything, transcripts included: the HTML report shows every sample. */
export function loadFullReportData(store: ResultStore, runId: string): FullReportData {
  const run = store.getRun(runId);
  const samples = store.listSamples(run.id);
  const cells = computeMetrics(samples);
  return { run, counts: store.outcomeCounts(run.id), cells, rows: configRows(cells), samples, events: store.listEvents(run.id) };
}
