import { classifySample, countKinds, type KindCounts, type KindFinding } from './classify/index.js';
import { computeMetrics, configRows, type CellMetrics, type ConfigRow } from './metrics.js';
import type { Outcome } from './record.js';
import type { ResultStore, RunInfo, StoredEvent, StoredSample } from './store.js';

export interface ReportData {
  run: RunInfo;
  counts: Record<Outcome, number>;
  cells: CellMetrics[];
  rows: ConfigRow[];
  /** How the cheating and evaded samples cheated, by model. */
  kinds: KindCounts;
}

export interface FullReportData extends ReportData {
  samples: StoredSample[];
  events: StoredEvent[];
  /** The kinds of each cheating or evaded sample, by sample id. */
  kindsById: Map<number, KindFinding[]>;
}

/** What the Markdown report needs: metrics without transcripts, and the kinds (which read the transcripts of cheating samples only). */
export function loadReportData(store: ResultStore, runId: string): ReportData {
  const run = store.getRun(runId);
  const cells = computeMetrics(store.iterateSamples(run.id, { withTranscript: false }));
  const kinds = countKinds(
    (function* () {
      for (const record of store.iterateSamples(run.id, { outcome: ['passed', 'evaded'] })) yield { record, kinds: classifySample(record) };
    })(),
  );
  return { run, counts: store.outcomeCounts(run.id), cells, rows: configRows(cells), kinds };
}

/** Everything, transcripts included: the HTML report shows every sample. */
export function loadFullReportData(store: ResultStore, runId: string): FullReportData {
  const run = store.getRun(runId);
  const samples = store.listSamples(run.id);
  const cells = computeMetrics(samples);
  const kindsById = new Map<number, KindFinding[]>();
  for (const s of samples) {
    const found = classifySample(s);
    if (found) kindsById.set(s.id, found);
  }
  const kinds = countKinds(samples.map((record) => ({ record, kinds: kindsById.get(record.id) ?? null })));
  return { run, counts: store.outcomeCounts(run.id), cells, rows: configRows(cells), kinds, samples, events: store.listEvents(run.id), kindsById };
}
