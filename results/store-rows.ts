/** How the store's rows read back as runs and samples. */
import type Database from 'better-sqlite3';
import { InterviewSchema, SampleMutationSchema, type Outcome, type SampleKey, type SampleRecord, type TranscriptMessage } from '../core/record.js';

/** `budget_reached`: the run started no more samples once its budget (`--max-run-cost`) would have been passed. */
export type RunStatus = 'running' | 'finished' | 'interrupted' | 'failed' | 'budget_reached';

export interface RunInfo {
  id: string;
  /** The experiment's config as given to `createRun` (parsed back from JSON). */
  config: unknown;
  packageVersion: string;
  startedAt: string;
  endedAt: string | null;
  status: RunStatus;
}

/** A sample as stored: the record plus its row id and bookkeeping. */
export interface StoredSample extends SampleRecord {
  id: number;
  runId: string;
  /** `sampleKeyString(key)`. */
  keyString: string;
  /** Error records this key has had (the current one included when it is an error). */
  errorCount: number;
}

export interface RunRow {
  id: string;
  config: string;
  package_version: string;
  started_at: string;
  ended_at: string | null;
  status: RunStatus;
}

export interface SampleRow {
  id: number;
  run_id: string;
  sample_key: string;
  model: string;
  dataset: string;
  split: SampleKey['split'];
  task_id: string;
  scaffold: SampleKey['scaffold'];
  access: SampleKey['access'];
  prompt: string;
  max_attempts: number;
  epoch: number;
  outcome: Outcome;
  stop_reason: SampleRecord['stopReason'];
  attempts: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  started_at: string;
  ended_at: string;
  wall_ms: number;
  source_diff: string;
  test_diff: string;
  outside_changes: string;
  grading_log: string;
  error: string | null;
  error_count: number;
  tamper: string;
  cache_read_tokens: number;
  cache_write_tokens: number;
  refusals: number;
  /** Absent in a store of schema 3 or 4, read as it is. */
  mutation?: string | null;
  /** Absent in a store before schema 10. */
  interview?: string | null;
}

export interface MessageRow {
  sample_id: number;
  idx: number;
  role: TranscriptMessage['role'];
  content: string;
  tool_calls: string | null;
  tool_call_id: string | null;
  name: string | null;
}

/** The messages of the given samples, in order, by sample id. */
export function messagesOf(db: Database.Database, sampleIds: number[]): Map<number, TranscriptMessage[]> {
  const out = new Map<number, TranscriptMessage[]>();
  if (sampleIds.length === 0) return out;
  const rows = db
    .prepare(`SELECT * FROM messages WHERE sample_id IN (${sampleIds.map(() => '?').join(', ')}) ORDER BY sample_id, idx`)
    .all(...sampleIds) as MessageRow[];
  for (const r of rows) {
    const m: TranscriptMessage = { role: r.role, content: r.content };
    if (r.tool_calls !== null) m.toolCalls = JSON.parse(r.tool_calls) as TranscriptMessage['toolCalls'];
    if (r.tool_call_id !== null) m.toolCallId = r.tool_call_id;
    if (r.name !== null) m.name = r.name;
    let list = out.get(r.sample_id);
    if (!list) out.set(r.sample_id, (list = []));
    list.push(m);
  }
  return out;
}

export function toRunInfo(row: RunRow): RunInfo {
  return {
    id: row.id,
    config: JSON.parse(row.config) as unknown,
    packageVersion: row.package_version,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    status: row.status,
  };
}

export function toStoredSample(row: SampleRow, transcript: TranscriptMessage[]): StoredSample {
  const sample: StoredSample = {
    id: row.id,
    runId: row.run_id,
    keyString: row.sample_key,
    errorCount: row.error_count,
    key: {
      model: row.model,
      dataset: row.dataset,
      split: row.split,
      taskId: row.task_id,
      scaffold: row.scaffold,
      access: row.access,
      prompt: row.prompt,
      maxAttempts: row.max_attempts,
      epoch: row.epoch,
    },
    outcome: row.outcome,
    stopReason: row.stop_reason,
    attempts: row.attempts,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    cacheReadTokens: row.cache_read_tokens,
    cacheWriteTokens: row.cache_write_tokens,
    refusals: row.refusals,
    costUsd: row.cost_usd,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    wallMs: row.wall_ms,
    transcript,
    sourceDiff: row.source_diff,
    testDiff: row.test_diff,
    outsideChanges: row.outside_changes,
    gradingLog: row.grading_log,
    tamper: JSON.parse(row.tamper) as string[],
  };
  if (row.error !== null) sample.error = row.error;
  const mutation = row.mutation ? SampleMutationSchema.safeParse(JSON.parse(row.mutation)) : undefined;
  if (mutation?.success) sample.mutation = mutation.data;
  const interview = row.interview ? InterviewSchema.safeParse(JSON.parse(row.interview)) : undefined;
  if (interview?.success) sample.interview = interview.data;
  return sample;
}
