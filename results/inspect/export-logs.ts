import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { classifySample } from '../classify/index.js';
import { verdictsByKey } from '../classify/judge-run.js';
import { labelOf } from '../labels.js';
import { CONFIG_FIELDS, type ConfigKey } from '../metrics.js';
import { monitorVerdictsByKey } from '../monitor/verdict.js';
import type { ResultStore, StoredSample } from '../store.js';
import { evalIdOf, logFileName, logHeader, reductions, runConfigOf, runLimitsOf, startEntry, type LogParts } from './log.js';
import { inspectSample, sampleSummary } from './sample.js';
import type { ScoredSample } from './scores.js';
import { writeLog } from './write.js';

export const INSPECT_FORMATS = ['inspect', 'inspect-json'] as const;
export type InspectFormat = (typeof INSPECT_FORMATS)[number];

export interface WrittenLog {
  file: string;
  cell: ConfigKey;
  samples: number;
}

/** The run's configurations: one log each. */
function cellsOf(store: ResultStore, runId: string): ConfigKey[] {
  const rows = store.database
    .prepare(
      'SELECT model, dataset, scaffold, access, prompt, max_attempts AS maxAttempts FROM samples WHERE run_id = ? ' +
        'GROUP BY model, dataset, scaffold, access, prompt, max_attempts ORDER BY MIN(id)',
    )
    .all(runId) as ConfigKey[];
  return rows;
}

/** What the results need of a sample once it is written: its transcript and evidence are let go. */
function light(s: ScoredSample): ScoredSample {
  const { transcript: _t, sourceDiff: _s, testDiff: _d, outsideChanges: _o, gradingLog: _g, ...rest } = s.sample;
  return { ...s, sample: { ...rest, transcript: [], sourceDiff: '', testDiff: '', outsideChanges: '', gradingLog: '' } as StoredSample };
}

/**
 * Writes a run as Inspect eval logs into the folder `outDir` (made when missing), one log per configuration (model,
 * dataset, scaffold, access, prompt, max attempts); its splits and epochs are the log's samples. Each file appears
 * only once complete; `progress` hears of each log written.
 */
export async function exportInspectLogs(
  store: ResultStore,
  runId: string,
  outDir: string,
  format: InspectFormat,
  progress: (line: string) => void = () => {},
): Promise<WrittenLog[]> {
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw new UserError(`--out ${outDir} is a file: the Inspect formats write a folder of logs`);
  mkdirSync(outDir, { recursive: true });
  const run = store.getRun(runId);
  const limits = runLimitsOf(runConfigOf(run));
  const judges = verdictsByKey(store, run.id);
  const monitors = monitorVerdictsByKey(store, run.id);
  const cells = cellsOf(store, run.id);
  const written: WrittenLog[] = [];
  for (const [i, cell] of cells.entries()) {
    const file = join(outDir, logFileName(run.startedAt, evalIdOf(run.id, cell), format === 'inspect' ? 'eval' : 'json'));
    // The summaries hold what the header needs of each written sample (id, epoch, times, score values): one list serves both.
    const summaries: ReturnType<typeof sampleSummary>[] = [];
    const references = store.runReferences(run.id).filter((r) => r.dataset === cell.dataset);
    const parts: LogParts & { scored: ScoredSample[] } = { run, cell, samples: summaries, scored: [], references };
    await writeLog(file, format === 'inspect' ? 'eval' : 'json', new Date(run.startedAt), (w) => {
      const filter = Object.fromEntries(CONFIG_FIELDS.map((f) => [f, cell[f]]));
      for (const sample of store.iterateSamples(run.id, filter)) {
        const scored: ScoredSample = {
          sample,
          label: labelOf(sample),
          kinds: classifySample(sample),
          judges: judges.get(sample.keyString) ?? [],
          monitors: monitors.get(sample.keyString) ?? [],
        };
        const s = inspectSample(scored, run.id, limits);
        w.sample(`samples/${s.id}_epoch_${s.epoch}.json`, s);
        summaries.push(sampleSummary(s));
        parts.scored.push(light(scored));
      }
      const header = logHeader(parts);
      w.finish({ header, start: startEntry(header), summaries, reductions: reductions(summaries) });
    });
    written.push({ file, cell, samples: parts.samples.length });
    progress(`[${i + 1}/${cells.length}] wrote ${file}: ${parts.samples.length} samples`);
  }
  return written;
}
