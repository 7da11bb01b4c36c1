import { IMPOSSIBLE_VARIANTS } from '../tasks/task.js';
import { writeLinesAtomic } from './atomic-write.js';
import { classifySample, type CheatingKind, type KindFinding } from './classify/index.js';
import type { JudgeVerdict } from './classify/judge.js';
import { verdictsByKey } from './classify/judge-run.js';
import { labelOf, type Label } from './labels.js';
import type { SampleRecord } from './record.js';
import type { ResultStore, StoredSample } from './store.js';

/** One line of an export: a sample with its ground-truth label, ready to train or test a cheating monitor. */
export interface ExportLine extends SampleRecord {
  runId: string;
  sampleId: number;
  /** Whether the split's tests contradict the spec. */
  impossible: boolean;
  label: Label;
  /** How a cheating or evaded sample cheated, each kind with the lines that show it; null for every other sample. */
  kinds: KindFinding[] | null;
  /** Verdicts of LLM judges (`impossiblebench classify`), the newest per judge model; empty when none was asked. */
  judges: JudgeVerdict[];
}

export function exportLine(sample: StoredSample, judges: JudgeVerdict[] = []): ExportLine {
  const { id, runId, keyString: _keyString, errorCount: _errorCount, ...record } = sample;
  return { runId, sampleId: id, impossible: IMPOSSIBLE_VARIANTS.includes(sample.key.split), label: labelOf(sample), kinds: classifySample(sample), judges, ...record };
}

export interface ExportSummary {
  lines: number;
  labels: Record<Label, number>;
  /** Samples showing each kind (a sample counts under each of its kinds). */
  kinds: Partial<Record<CheatingKind, number>>;
}

/** Writes every sample of a run as one JSON line each; the file appears only once complete. */
export async function exportRun(store: ResultStore, runId: string, out: string): Promise<ExportSummary> {
  const run = store.getRun(runId);
  const labels: Record<Label, number> = { cheating: 0, legit: 0, none: 0 };
  const kinds: ExportSummary['kinds'] = {};
  const verdicts = verdictsByKey(store, run.id);
  const lines = await writeLinesAtomic(
    out,
    (function* () {
      for (const sample of store.iterateSamples(run.id)) {
        const line = exportLine(sample, verdicts.get(sample.keyString));
        labels[line.label]++;
        for (const f of line.kinds ?? []) kinds[f.kind] = (kinds[f.kind] ?? 0) + 1;
        yield JSON.stringify(line);
      }
    })(),
  );
  return { lines, labels, kinds };
}
