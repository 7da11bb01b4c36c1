import { gunzipSync, gzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { ExecResult } from '../docker/types.js';

/** One reference run kept for later runs: the test command's output, whatever reads it. */
export interface StoredReferenceRun {
  key: string;
  taskId: string;
  image: string;
  limits: { cpus: number; memoryMb: number };
  madeAt: string;
  durationMs: number;
  run: ExecResult;
}

/** A graded test a reference run skipped, and why where the runner said. */
const SkippedInReferenceSchema = z.object({ id: z.string(), reason: z.string().optional() });
export type SkippedInReference = z.infer<typeof SkippedInReferenceSchema>;

/** What one run made of a task's reference run (also read back from an Inspect log's eval spec, so checked). */
export const RunReferenceSchema = z.object({
  dataset: z.string(),
  taskId: z.string(),
  referenceKey: z.string(),
  resolved: z.boolean(),
  /** Why it did not resolve (or `resolved`), in one line. */
  reason: z.string(),
  notPassed: z.array(z.object({ id: z.string(), status: z.string(), why: z.string() })),
  skipped: z.array(SkippedInReferenceSchema),
  /** The sandbox limits it ran under, in words (`2 CPUs, 4096 MiB`). */
  limits: z.string(),
});
export type RunReference = z.infer<typeof RunReferenceSchema>;

const ExecResultSchema = z.object({
  exitCode: z.number().int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  timedOut: z.boolean(),
  oomKilled: z.boolean(),
  stdoutCutBytes: z.number(),
  stderrCutBytes: z.number(),
  durationMs: z.number(),
});

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

export function findReferenceRun(db: Database.Database, key: string): StoredReferenceRun | undefined {
  if (!hasTable(db, 'reference_runs')) return undefined;
  const row = db.prepare('SELECT * FROM reference_runs WHERE key = ?').get(key) as
    | { key: string; task_id: string; image: string; limits: string; made_at: string; duration_ms: number; run: Buffer }
    | undefined;
  if (!row) return undefined;
  // A row this version cannot read is as good as none: the reference is made again.
  const run = ExecResultSchema.safeParse(JSON.parse(gunzipSync(row.run).toString('utf8')));
  if (!run.success) return undefined;
  return {
    key: row.key,
    taskId: row.task_id,
    image: row.image,
    limits: JSON.parse(row.limits) as StoredReferenceRun['limits'],
    madeAt: row.made_at,
    durationMs: row.duration_ms,
    run: run.data,
  };
}

export function saveReferenceRun(db: Database.Database, ref: StoredReferenceRun): void {
  db.prepare('INSERT OR REPLACE INTO reference_runs (key, task_id, image, limits, made_at, duration_ms, run) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    ref.key,
    ref.taskId,
    ref.image,
    JSON.stringify(ref.limits),
    ref.madeAt,
    ref.durationMs,
    gzipSync(JSON.stringify(ref.run)),
  );
}

/** Records (or, on a resume, replaces) what a run made of its tasks' reference runs, in one transaction. */
export function recordRunReferences(db: Database.Database, runId: string, rows: readonly RunReference[]): void {
  const insert = db.prepare(
    `INSERT OR REPLACE INTO run_references (run_id, dataset, task_id, reference_key, resolved, reason, not_passed, skipped, limits)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const r of rows) {
      insert.run(
        runId,
        r.dataset,
        r.taskId,
        r.referenceKey,
        r.resolved ? 1 : 0,
        r.reason,
        JSON.stringify(r.notPassed),
        JSON.stringify(r.skipped),
        r.limits,
      );
    }
  })();
}

/** A run's reference verdicts, by dataset and task; none for a store written before they were kept. */
export function runReferences(db: Database.Database, runId: string): RunReference[] {
  if (!hasTable(db, 'run_references')) return [];
  const rows = db.prepare('SELECT * FROM run_references WHERE run_id = ? ORDER BY dataset, task_id').all(runId) as {
    dataset: string;
    task_id: string;
    reference_key: string;
    resolved: number;
    reason: string;
    not_passed: string;
    skipped: string;
    limits: string;
  }[];
  return rows.map((r) => ({
    dataset: r.dataset,
    taskId: r.task_id,
    referenceKey: r.reference_key,
    resolved: r.resolved === 1,
    reason: r.reason,
    notPassed: JSON.parse(r.not_passed) as RunReference['notPassed'],
    skipped: JSON.parse(r.skipped) as SkippedInReference[],
    limits: r.limits,
  }));
}
