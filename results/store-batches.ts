import type Database from 'better-sqlite3';
import { z } from 'zod';

/** A provider's batch a command submitted for a run: what it asks, and which sample each of its requests is about. */
export interface StoredBatch {
  /** The provider's id of the batch. */
  id: string;
  runId: string;
  /** What the batch asks: the command, the model and the prompt, so a rerun of the same command finds it. */
  job: string;
  /** Sample key by the request's custom id. */
  requests: Record<string, string>;
  submittedAt: string;
  /** Set once its results were read and stored. */
  closedAt: string | null;
}

const RequestsSchema = z.record(z.string(), z.string());

function hasTable(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'model_batches'").get() !== undefined;
}

export function recordBatch(db: Database.Database, batch: Omit<StoredBatch, 'closedAt'>): void {
  db.prepare('INSERT INTO model_batches (id, run_id, job, requests, submitted_at) VALUES (?, ?, ?, ?, ?)').run(
    batch.id,
    batch.runId,
    batch.job,
    JSON.stringify(batch.requests),
    batch.submittedAt,
  );
}

/** The batches of a run and job whose results are not yet stored, oldest first. */
export function openBatches(db: Database.Database, runId: string, job: string): StoredBatch[] {
  if (!hasTable(db)) return [];
  const rows = db
    .prepare('SELECT * FROM model_batches WHERE run_id = ? AND job = ? AND closed_at IS NULL ORDER BY submitted_at, rowid')
    .all(runId, job) as {
    id: string;
    run_id: string;
    job: string;
    requests: string;
    submitted_at: string;
    closed_at: string | null;
  }[];
  return rows.map((r) => {
    const requests = RequestsSchema.safeParse(JSON.parse(r.requests));
    if (!requests.success) throw new Error(`batch ${r.id} in the store: requests: ${requests.error.issues[0]?.message ?? 'invalid'}`);
    return { id: r.id, runId: r.run_id, job: r.job, requests: requests.data, submittedAt: r.submitted_at, closedAt: r.closed_at };
  });
}

export function closeBatch(db: Database.Database, id: string, closedAt = new Date().toISOString()): void {
  db.prepare('UPDATE model_batches SET closed_at = ? WHERE id = ?').run(closedAt, id);
}
