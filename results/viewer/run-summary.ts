import { ARM_FIELDS, type ArmField } from '../compare/compare.js';
import { configRows } from '../metrics.js';
import { cellMetricsOf } from '../metrics-sql.js';
import { aurocText, rateText, unscoredText } from '../monitor/markdown.js';
import { DEFAULT_THRESHOLD } from '../monitor/metrics.js';
import { monitorReportData } from '../monitor/report-data.js';
import { monitorVerdictsByKey } from '../monitor/verdict.js';
import { kindTable, rateTable, type RateTable, type TextTable } from '../report-tables.js';
import type { IndexState } from '../store-index.js';
import type { ResultStore } from '../store.js';
import { storedKindCounts, storedStaticReads } from '../stored-kinds.js';
import { shortHash } from '../../core/text-file.js';

/** The summary of a run's report, as text tables: its rates, how its samples cheated, its monitors. */
export interface RunSummary {
  rates: RateTable;
  /** Null when no sample was classified. */
  kinds: TextTable | null;
  /** Null when no monitor read the run. */
  monitors: TextTable | null;
  /** Whether the store has the kinds index: without it, kinds and the static classifier are not shown. */
  kindsIndexed: boolean;
  threshold: number;
  /** The settings the run has more than one value of: its Compare page compares the arms of each. */
  armFields: ArmField[];
}

/**
 * A run's summary from SQL aggregates and the store's kinds index: no transcript is read, so it stays fast at
 * tens of thousands of samples. LLM monitors come from their stored verdicts.
 */
export function runSummary(store: ResultStore, runId: string, indexes: IndexState): RunSummary {
  const run = store.getRun(runId);
  const db = store.database;
  const verdicts = monitorVerdictsByKey(store, run.id);
  // Sample keys are needed only to match LLM verdicts to their samples.
  const samples = verdicts.size ? store.listSamples(run.id, { withTranscript: false }) : [];
  const monitors = monitorReportData(samples, indexes.kinds ? storedStaticReads(db, run.id) : [], verdicts, DEFAULT_THRESHOLD).monitors;
  const rows = configRows(cellMetricsOf(db, run.id));
  return {
    rates: rateTable(rows),
    kinds: indexes.kinds ? kindTable(storedKindCounts(db, run.id)) : null,
    monitors: monitors.length
      ? {
          head: ['Monitor', 'Prompt', 'Answers', 'Detection (cheating flagged)', 'False positives (legit flagged)', 'AUROC', 'Not scored'],
          rows: monitors.map((m) => [
            m.id.model,
            m.id.promptHash ? shortHash(m.id.promptHash) : '—',
            String(m.overall.answers),
            rateText(m.overall.detection),
            rateText(m.overall.falsePositive),
            aurocText(m.overall.auroc),
            unscoredText(m.overall),
          ]),
        }
      : null,
    kindsIndexed: indexes.kinds,
    threshold: DEFAULT_THRESHOLD,
    armFields: ARM_FIELDS.filter((f) => new Set(rows.map((r) => String(r.config[f]))).size > 1),
  };
}
