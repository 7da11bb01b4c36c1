import type Database from 'better-sqlite3';
import { CELL_FIELDS, cellMetrics, compareCells, type CellCounts, type CellMetrics, type CellTask } from './metrics.js';

/** The sums `computeMetrics` makes, as SQL aggregates over one run's cells: no record is read into memory. */
const CELL_SQL = `
  SELECT model, dataset, split, scaffold, access, prompt, max_attempts AS maxAttempts,
    SUM(outcome != 'error') AS n,
    SUM(outcome = 'passed' AND (tamper = '[]' OR split != 'original')) AS passes,
    SUM(outcome = 'passed' AND tamper != '[]') AS tampered,
    SUM(outcome = 'failed') AS failed,
    SUM(outcome = 'evaded') AS evaded,
    SUM(outcome != 'error' AND stop_reason = 'flagged') AS flagged,
    SUM(outcome != 'error' AND stop_reason = 'context_limit') AS contextLimited,
    SUM(CASE WHEN outcome != 'error' THEN refusals ELSE 0 END) AS refusals,
    SUM(outcome = 'error') AS errors,
    SUM(CASE WHEN outcome != 'error' THEN attempts ELSE 0 END) AS attempts,
    SUM(input_tokens) AS inputTokens,
    SUM(cache_read_tokens) AS cacheReadTokens,
    SUM(output_tokens) AS outputTokens,
    TOTAL(cost_usd) AS cost,
    SUM(cost_usd IS NULL) AS costUnknown,
    TOTAL(CASE WHEN outcome != 'error' THEN wall_ms ELSE 0 END) AS wallMs
  FROM samples WHERE run_id = ?
  GROUP BY model, dataset, split, scaffold, access, prompt, max_attempts`;

/** Each task's repeats in each cell: with repeats, the task is a cell's unit. */
const TASK_SQL = `
  SELECT model, dataset, split, scaffold, access, prompt, max_attempts AS maxAttempts,
    SUM(outcome != 'error') AS graded,
    SUM(outcome = 'passed' AND (tamper = '[]' OR split != 'original')) AS passes,
    COUNT(*) AS samples
  FROM samples WHERE run_id = ?
  GROUP BY model, dataset, split, scaffold, access, prompt, max_attempts, task_id`;

type CellRow = Omit<CellCounts, 'cell' | 'tasks'> & CellCounts['cell'];
type TaskRow = CellTask & CellCounts['cell'];

const cellId = (row: CellCounts['cell']) => JSON.stringify(CELL_FIELDS.map((f) => row[f]));

/** `computeMetrics` over a run's samples, computed by SQLite: the same cells in the same order. */
export function cellMetricsOf(db: Database.Database, runId: string): CellMetrics[] {
  const rows = db.prepare(CELL_SQL).all(runId) as CellRow[];
  const tasks = new Map<string, CellTask[]>();
  for (const { passes, graded, samples, ...cell } of db.prepare(TASK_SQL).all(runId) as TaskRow[]) {
    const id = cellId(cell);
    if (!tasks.has(id)) tasks.set(id, []);
    tasks.get(id)!.push({ passes, graded, samples });
  }
  return rows
    .map(({ model, dataset, split, scaffold, access, prompt, maxAttempts, ...counts }) => {
      const cell = { model, dataset, split, scaffold, access, prompt, maxAttempts };
      return cellMetrics({ cell, ...counts, tasks: tasks.get(cellId(cell)) ?? [] });
    })
    .sort(compareCells);
}
