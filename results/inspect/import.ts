import { z } from 'zod';
import { RunReferenceSchema, type RunReference } from '../store-references.js';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { JUDGE_EVENT } from '../classify/judge.js';
import { MONITOR_EVENT } from '../monitor/verdict.js';
import { newRunId, type ResultStore, type RunStatus } from '../store.js';
import type { LogKind } from './log-kind.js';
import { logKindOf } from './log-kinds.js';
import { ourLogKind } from './our-kind.js';
import { readInspectLog, type ReadLog } from './read.js';
import { judgeVerdictsOf, monitorVerdictsOf } from './verdicts-of.js';

/**
 * Inspect eval logs into a store as one run of their own. Each log's samples are written in one transaction; the run
 * stays `running` until every log is in, so an import that crashed shows as a run not finished, never as a whole one.
 * A file or sample that cannot be read is skipped with one line saying why; the rest is imported.
 */

export interface ImportedLog {
  file: string;
  kind: string;
  samples: number;
}

export interface ImportResult {
  runId: string;
  logs: ImportedLog[];
  /** One line per file or sample left out, naming it and why. */
  skipped: string[];
  /** Samples imported, by the kind of log they came from. */
  byKind: Record<string, number>;
  /** What the logs lack that our own runs hold, each once. */
  lacks: string[];
}

/** What the run's config records of where it came from. */
export interface ImportedFrom {
  files: { file: string; kind: string }[];
  lacks: string[];
  /** Samples our grading never saw: the report counts none of them as a pass or a cheat. */
  ungraded: number;
}

const LOG_FILE = /\.(eval|json)$/i;

/** Files as given, and each folder's `*.eval` and `*.json` files, sorted. */
export function logFiles(paths: readonly string[]): string[] {
  return paths.flatMap((p) => {
    if (!existsSync(p)) throw new UserError(`no file or folder ${p}`);
    if (!statSync(p).isDirectory()) return [p];
    return readdirSync(p)
      .filter((f) => LOG_FILE.test(f))
      .sort()
      .map((f) => join(p, f));
  });
}

interface Loaded {
  file: string;
  log: ReadLog;
  kind: LogKind;
}

const metadataOf = (l: Loaded) => (l.log.header.eval.metadata ?? {}) as Record<string, unknown>;
const STATUSES: readonly Exclude<RunStatus, 'running'>[] = ['finished', 'interrupted', 'failed', 'budget_reached'];

/** Our own logs of one run keep its id, times, status and config, when the store has no run of that id. */
function ourRun(loaded: readonly Loaded[], store: ResultStore) {
  if (!loaded.length || loaded.some((l) => l.kind !== ourLogKind)) return undefined;
  const ids = new Set(loaded.map((l) => metadataOf(l).run_id));
  const meta = metadataOf(loaded[0]!);
  if (ids.size !== 1 || typeof meta.run_id !== 'string' || store.findRun(meta.run_id)) return { config: meta.run_config };
  const status = STATUSES.find((s) => s === meta.run_status);
  return {
    id: meta.run_id,
    config: meta.run_config,
    startedAt: typeof meta.run_started_at === 'string' ? meta.run_started_at : undefined,
    endedAt: typeof meta.run_ended_at === 'string' ? meta.run_ended_at : undefined,
    status,
  };
}

/** The reference verdicts our logs carry, once per task of each dataset; a log whose list cannot be read says so. */
function referencesOf(loaded: readonly Loaded[], skip: (line: string) => void): RunReference[] {
  const byTask = new Map<string, RunReference>();
  for (const l of loaded) {
    const parsed = z.array(RunReferenceSchema).safeParse(metadataOf(l).run_references ?? []);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      skip(`${l.file}: the run's reference verdicts: field ${issue.path.join('.')}: ${issue.message}`);
      continue;
    }
    for (const r of parsed.data) byTask.set(`${r.dataset}\0${r.taskId}`, r);
  }
  return [...byTask.values()];
}

function load(files: readonly string[], skip: (line: string) => void): Loaded[] {
  return files.flatMap((file) => {
    try {
      const log = readInspectLog(file);
      return [{ file, log, kind: logKindOf(log.header) }];
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      skip(err.message);
      return [];
    }
  });
}

export function importInspectLogs(store: ResultStore, paths: readonly string[], progress: (line: string) => void = () => {}): ImportResult {
  const skipped: string[] = [];
  const skip = (line: string) => {
    skipped.push(`skipped ${line}`);
    progress(`skipped ${line}`);
  };
  const loaded = load(logFiles(paths), skip);
  if (!loaded.length) throw new UserError(`no Inspect log could be read from ${paths.join(', ')}`);
  const ours = ourRun(loaded, store);
  const lacks = new Set<string>();
  const from: ImportedFrom = { files: loaded.map((l) => ({ file: l.file, kind: l.kind.name })), lacks: [], ungraded: 0 };
  const base = ours?.config && typeof ours.config === 'object' ? (ours.config as Record<string, unknown>) : {};
  const runId = store.createRun({ ...base, imported: from }, { id: ours && 'id' in ours ? ours.id : newRunId(), startedAt: ours?.startedAt });
  const result: ImportResult = { runId, logs: [], skipped, byKind: {}, lacks: [] };
  if (ours) store.recordRunReferences(runId, referencesOf(loaded, skip));
  for (const [i, { file, log, kind }] of loaded.entries()) {
    for (const b of log.bad) skip(b.message);
    let written = 0;
    store.database.transaction(() => {
      for (const sample of log.samples) {
        let imported: ReturnType<LogKind['sample']>;
        try {
          imported = kind.sample(log.header, sample);
        } catch (err) {
          if (!(err instanceof UserError)) throw err;
          skip(`${file}: ${err.message}`);
          continue;
        }
        if (store.getSample(runId, imported.record.key)) {
          skip(`${file}: sample ${sample.id}, epoch ${sample.epoch}: an earlier log of this import holds the same sample`);
          continue;
        }
        const stored = store.saveSample(runId, imported.record);
        store.saveSampleScores(stored.id, imported.scores);
        for (const v of judgeVerdictsOf(imported.scores)) store.addEvent(runId, JUDGE_EVENT, v, stored.keyString);
        for (const v of monitorVerdictsOf(imported.scores)) store.addEvent(runId, MONITOR_EVENT, v, stored.keyString);
        for (const l of imported.lacks) lacks.add(l);
        if (!kind.graded) from.ungraded++;
        written++;
      }
    })();
    result.byKind[kind.name] = (result.byKind[kind.name] ?? 0) + written;
    result.logs.push({ file, kind: kind.name, samples: written });
    progress(`[${i + 1}/${loaded.length}] ${file}: ${written} samples (${kind.name})`);
  }
  from.lacks = [...lacks];
  result.lacks = from.lacks;
  store.setRunConfig(runId, { ...base, imported: from });
  store.finishRun(runId, ours?.status ?? 'finished', ours?.endedAt);
  return result;
}
