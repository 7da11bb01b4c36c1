import type Database from 'better-sqlite3';
import type { Outcome, SampleRecord } from '../core/record.js';
import { sampleKeyString } from './sample-key.js';
import { indexSample } from './store-index.js';

/** The columns a record sets beyond its key, in the order `recordValues` gives them. */
const RECORD_COLUMNS = [
  'outcome',
  'stop_reason',
  'attempts',
  'input_tokens',
  'output_tokens',
  'cost_usd',
  'started_at',
  'ended_at',
  'wall_ms',
  'source_diff',
  'test_diff',
  'outside_changes',
  'grading_log',
  'error',
  'error_count',
  'tamper',
  'cache_read_tokens',
  'cache_write_tokens',
  'refusals',
  'mutation',
  'interview',
] as const;

const KEY_COLUMNS = [
  'run_id',
  'sample_key',
  'model',
  'dataset',
  'split',
  'task_id',
  'scaffold',
  'access',
  'prompt',
  'max_attempts',
  'epoch',
] as const;

function recordValues(rec: SampleRecord, errorCount: number): unknown[] {
  return [
    rec.outcome,
    rec.stopReason,
    rec.attempts,
    rec.inputTokens,
    rec.outputTokens,
    rec.costUsd,
    rec.startedAt,
    rec.endedAt,
    rec.wallMs,
    rec.sourceDiff,
    rec.testDiff,
    rec.outsideChanges,
    rec.gradingLog,
    rec.error ?? null,
    errorCount,
    JSON.stringify(rec.tamper),
    rec.cacheReadTokens,
    rec.cacheWriteTokens,
    rec.refusals,
    rec.mutation ? JSON.stringify(rec.mutation) : null,
    rec.interview ? JSON.stringify(rec.interview) : null,
  ];
}

/**
 * Writes one validated record and its messages, inside the caller's transaction, and indexes it; returns its id.
 * An earlier `error` record of the same key is replaced in place (same id, error count carried over); a finished
 * sample is never overwritten.
 */
export function writeSample(db: Database.Database, runId: string, rec: SampleRecord): number {
  const keyString = sampleKeyString(rec.key);
  const existing = db.prepare('SELECT id, outcome, error_count FROM samples WHERE run_id = ? AND sample_key = ?').get(runId, keyString) as
    | { id: number; outcome: Outcome; error_count: number }
    | undefined;
  if (existing && existing.outcome !== 'error') {
    throw new Error(`sample ${keyString} of run ${runId} is already finished (${existing.outcome}); it is never overwritten`);
  }
  const values = recordValues(rec, (existing?.error_count ?? 0) + (rec.outcome === 'error' ? 1 : 0));
  let sampleId: number;
  if (existing) {
    // Replace the error record in place: the sample keeps its id, its old messages go.
    db.prepare(`UPDATE samples SET ${RECORD_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...values, existing.id);
    db.prepare('DELETE FROM messages WHERE sample_id = ?').run(existing.id);
    sampleId = existing.id;
  } else {
    const k = rec.key;
    const columns = [...KEY_COLUMNS, ...RECORD_COLUMNS];
    const info = db
      .prepare(`INSERT INTO samples (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
      .run(runId, keyString, k.model, k.dataset, k.split, k.taskId, k.scaffold, k.access, k.prompt, k.maxAttempts, k.epoch, ...values);
    sampleId = Number(info.lastInsertRowid);
  }
  const insertMessage = db.prepare(
    'INSERT INTO messages (sample_id, idx, role, content, tool_calls, tool_call_id, name) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  rec.transcript.forEach((m, i) => {
    insertMessage.run(sampleId, i, m.role, m.content, m.toolCalls ? JSON.stringify(m.toolCalls) : null, m.toolCallId ?? null, m.name ?? null);
  });
  indexSample(db, sampleId, rec);
  return sampleId;
}
