import { runEnvironment } from './report-environment.js';
import { extname } from 'node:path';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import { IMPOSSIBLE_VARIANTS, type InterviewReading, type InterviewRecord, type SampleRecord } from '../core/record.js';
import { writeFileAtomic, writeLinesAtomic } from '../core/atomic-write.js';
import { classifySample, type KindFinding } from './classify/index.js';
import type { JudgeVerdict } from './classify/judge.js';
import { verdictsByKey } from './classify/judge-run.js';
import { datasetCard, datasetCardPath, newTally, tallyLine, type ExportTally } from './dataset-card.js';
import { writeParquetAtomic } from './export-parquet.js';
import { interviewStatus } from './interview-answer.js';
import { labelOf, type Label } from './labels.js';
import { monitorVerdictsByKey, type MonitorVerdict } from './monitor/verdict.js';
import type { ResultStore, StoredSample } from './store.js';
import { INSPECT_FORMATS, type InspectFormat } from './inspect/export-logs.js';

/** A sample's interview as an export holds it: flat, with the rules' reading beside the answer and every field present. */
export interface ExportInterview {
  question: string;
  answer: string;
  /** Null when the interview has an error. */
  reading: InterviewReading | null;
  error: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  judgeModel: string | null;
  judgeReading: InterviewReading | null;
  judgeError: string | null;
  judgeCostUsd: number | null;
}

export function exportInterview(interview: InterviewRecord): ExportInterview {
  const status = interviewStatus(interview);
  return {
    question: interview.question,
    answer: interview.answer,
    reading: status === 'not-asked' ? null : status,
    error: interview.error ?? null,
    inputTokens: interview.inputTokens,
    outputTokens: interview.outputTokens,
    costUsd: interview.costUsd,
    judgeModel: interview.judge?.model ?? null,
    judgeReading: interview.judge?.reading ?? null,
    judgeError: interview.judge?.error ?? null,
    judgeCostUsd: interview.judge ? interview.judge.costUsd : null,
  };
}

/** One line of an export: a sample with its ground-truth label, ready to train or test a cheating monitor. */
export interface ExportLine extends Omit<SampleRecord, 'interview'> {
  runId: string;
  sampleId: number;
  /** Whether the split's tests contradict the spec. */
  impossible: boolean;
  label: Label;
  /** How a cheating or evaded sample cheated, each kind with the lines that show it; null for every other sample. */
  kinds: KindFinding[] | null;
  /** Verdicts of LLM judges (`impossiblebench classify`), the newest per judge model; empty when none was asked. */
  judges: JudgeVerdict[];
  /** Suspicion scores of LLM monitors, the newest per monitor model and prompt; empty when none was asked. */
  monitors: MonitorVerdict[];
  /** What the agent said when asked once graded (`run --interview`); null when it was not asked. */
  interview: ExportInterview | null;
}

export function exportLine(sample: StoredSample, judges: JudgeVerdict[] = [], monitors: MonitorVerdict[] = []): ExportLine {
  const { id, runId, keyString: _keyString, errorCount: _errorCount, interview, ...record } = sample;
  return {
    runId,
    sampleId: id,
    impossible: IMPOSSIBLE_VARIANTS.includes(sample.key.split),
    label: labelOf(sample),
    kinds: classifySample(sample),
    judges,
    monitors,
    ...record,
    interview: interview ? exportInterview(interview) : null,
  };
}

/** Datasets of one row per sample (jsonl, parquet), or folders of Inspect eval logs (`results/inspect/`). */
export const EXPORT_FORMATS = ['jsonl', 'parquet', ...INSPECT_FORMATS] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Which samples an export keeps: by label (`cheating`, `legit`) or by outcome (`passed`). */
export const EXPORT_FILTERS = ['cheating', 'legit', 'passed'] as const;
export type ExportFilter = (typeof EXPORT_FILTERS)[number];

const ExportOptionsSchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: (i) => `unknown format "${String(i.input)}": use ${EXPORT_FORMATS.join(', ')}` }).optional(),
  only: z.enum(EXPORT_FILTERS, { error: (i) => `unknown --only value "${String(i.input)}": use ${EXPORT_FILTERS.join(', ')}` }).optional(),
  /** Write the dataset card beside the file (default true). */
  card: z.boolean().default(true),
});
export type ExportOptions = z.input<typeof ExportOptionsSchema>;

/** The format asked for, else the one the file name says (`.parquet`), else JSONL. */
export function exportFormatFor(out: string, format?: string): ExportFormat {
  if (format !== undefined) return parseExportOptions({ format }).format!;
  return extname(out).toLowerCase() === '.parquet' ? 'parquet' : 'jsonl';
}

/** Options as typed on the command line, checked: a one-line error names a bad value and the good ones. */
export function parseExportOptions(options: unknown): z.output<typeof ExportOptionsSchema> {
  const parsed = ExportOptionsSchema.safeParse(options);
  if (!parsed.success) throw new UserError(parsed.error.issues[0]!.message);
  // A log's rates are its configuration's: a log of some of its samples would state rates the run never had.
  if (parsed.data.only && isInspectFormat(parsed.data.format)) {
    throw new UserError(`--only does not apply to --format ${parsed.data.format}: each log holds every sample of its configuration`);
  }
  return parsed.data;
}

export function isInspectFormat(format: string | undefined): format is InspectFormat {
  return (INSPECT_FORMATS as readonly string[]).includes(format ?? '');
}

export function keepsLine(line: Pick<ExportLine, 'label' | 'outcome'>, only: ExportFilter | undefined): boolean {
  if (only === 'passed') return line.outcome === 'passed';
  return only === undefined || line.label === only;
}

/** What was written: the card's counts of the rows (labels, outcomes, kinds), the format and the card's path. */
export interface ExportSummary extends Pick<ExportTally, 'labels' | 'outcomes' | 'kinds'> {
  format: ExportFormat;
  /** Samples written. */
  lines: number;
  /** The dataset card written beside the file, if one was. */
  card?: string;
}

/**
 * Writes the samples of a run, one row each, as JSONL or Parquet (the same rows and columns either way), and a dataset
 * card beside it. Each file appears only once complete.
 */
export async function exportRun(store: ResultStore, runId: string, out: string, options: ExportOptions = {}): Promise<ExportSummary> {
  const { only, card } = parseExportOptions(options);
  const format = exportFormatFor(out, options.format);
  if (isInspectFormat(format)) throw new Error(`exportRun writes datasets; ${format} logs are written by exportInspectLogs`);
  const run = store.getRun(runId);
  const judges = verdictsByKey(store, run.id);
  const monitors = monitorVerdictsByKey(store, run.id);
  const tally = newTally();
  function* lines(): Generator<ExportLine> {
    for (const sample of store.iterateSamples(run.id)) {
      tally.runSamples++;
      const line = exportLine(sample, judges.get(sample.keyString), monitors.get(sample.keyString));
      if (!keepsLine(line, only)) continue;
      tallyLine(tally, line, sample.interview);
      yield line;
    }
  }
  if (format === 'parquet') await writeParquetAtomic(out, lines());
  else
    await writeLinesAtomic(
      out,
      (function* () {
        for (const line of lines()) yield JSON.stringify(line);
      })(),
    );
  const summary: ExportSummary = { format, lines: tally.rows, labels: tally.labels, outcomes: tally.outcomes, kinds: tally.kinds };
  if (card) {
    summary.card = datasetCardPath(out);
    writeFileAtomic(summary.card, datasetCard({ run, out, format, ...(only ? { only } : {}), tally, environment: runEnvironment(store, run) }));
  }
  return summary;
}
