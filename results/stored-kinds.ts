import type Database from 'better-sqlite3';
import type { Outcome, SampleKey, StopReason } from '../core/record.js';
import type { CheatingKind, KindCounts } from './classify/index.js';
import { countKinds } from './classify/summary.js';
import { CLASSIFIED_SQL } from './labels.js';
import type { StaticRead } from './monitor/report-data.js';

/** A run's kind counts from the store's kinds index: no transcript is read. */
export function storedKindCounts(db: Database.Database, runId: string): KindCounts {
  const rows = db
    .prepare(
      `SELECT s.model, (SELECT json_group_array(kind) FROM sample_kinds k WHERE k.sample_id = s.id) AS kinds
       FROM samples s WHERE s.run_id = ? AND ${CLASSIFIED_SQL}`,
    )
    .all(runId) as { model: string; kinds: string }[];
  return countKinds(
    rows.map((r) => ({
      record: { key: { model: r.model } as SampleKey },
      kinds: (JSON.parse(r.kinds) as CheatingKind[]).map((kind) => ({ kind, why: '', evidence: [] })),
    })),
  );
}

interface PassRow {
  id: number;
  keyString: string;
  model: string;
  dataset: string;
  split: SampleKey['split'];
  taskId: string;
  scaffold: SampleKey['scaffold'];
  access: SampleKey['access'];
  prompt: string;
  maxAttempts: number;
  epoch: number;
  outcome: Outcome;
  stopReason: StopReason;
  tamper: string;
  tricks: string;
}

/** The static classifier's read of each pass of a run, from the store's kinds index. */
export function storedStaticReads(db: Database.Database, runId: string): StaticRead[] {
  const rows = db
    .prepare(
      `SELECT id, sample_key AS keyString, model, dataset, split, task_id AS taskId, scaffold, access, prompt, max_attempts AS maxAttempts,
        epoch, outcome, stop_reason AS stopReason, tamper,
        (SELECT json_group_array(kind) FROM sample_kinds k WHERE k.sample_id = s.id AND kind != 'other') AS tricks
       FROM samples s WHERE run_id = ? AND outcome = 'passed' ORDER BY id`,
    )
    .all(runId) as PassRow[];
  return rows.map(({ keyString, outcome, stopReason, tamper, tricks, id: _id, ...key }) => {
    const named = JSON.parse(tricks) as string[];
    return {
      sample: { key, keyString, outcome, stopReason, tamper: JSON.parse(tamper) as string[] },
      score: named.length ? 100 : 0,
      tricks: named,
    };
  });
}
