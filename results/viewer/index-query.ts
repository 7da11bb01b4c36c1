import type Database from 'better-sqlite3';
import { z } from 'zod';
import { UserError } from '../../core/errors.js';
import { CHEATING_KINDS } from '../classify/kinds.js';
import { CLASSIFIED_SQL, LABEL_SQL } from '../labels.js';
import type { InterviewStatus } from '../interview-answer.js';
import type { IndexState } from '../store-index.js';
import { INTERVIEW_FILTERS, interviewClause, interviewFacet, interviewSql, type InterviewFilter } from './index-interview.js';
import { transcriptHits } from './transcript-search.js';

/** The index's columns a user filters by equality, by the name the page uses. */
const FILTER_COLUMNS = {
  run: 'run_id',
  model: 'model',
  dataset: 'dataset',
  split: 'split',
  scaffold: 'scaffold',
  access: 'access',
  prompt: 'prompt',
  outcome: 'outcome',
  stop: 'stop_reason',
  label: LABEL_SQL,
} as const;

export type FilterName = keyof typeof FILTER_COLUMNS;
export const FILTER_NAMES = Object.keys(FILTER_COLUMNS) as FilterName[];

/** Sortable columns, by the name the page uses; every order ends with the row id, so pages never overlap. */
const SORT_COLUMNS = {
  id: 'id',
  run: 'run_id',
  model: 'model',
  dataset: 'dataset',
  split: 'split',
  task: 'task_id',
  scaffold: 'scaffold',
  access: 'access',
  outcome: 'outcome',
  label: LABEL_SQL,
  stop: 'stop_reason',
  tokens: 'input_tokens + output_tokens',
  cost: 'cost_usd',
  wall: 'wall_ms',
} as const;

const text = z.string().max(200);
/** A bound of a range; an empty field is no bound. */
const bound = z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().finite().min(0).optional());

/** The range filters: tokens (input and output) and cost in USD, each bound inclusive. */
const RANGES = {
  tokensMin: 'input_tokens + output_tokens >= ?',
  tokensMax: 'input_tokens + output_tokens <= ?',
  costMin: 'cost_usd >= ?',
  costMax: 'cost_usd <= ?',
} as const;
type RangeName = keyof typeof RANGES;
const RANGE_NAMES = Object.keys(RANGES) as RangeName[];

/** The index query as the page sends it; unknown or malformed values are refused with one line. */
export const IndexQuerySchema = z.object({
  ...Object.fromEntries(FILTER_NAMES.map((name) => [name, text.optional()])),
  ...Object.fromEntries(RANGE_NAMES.map((name) => [name, bound])),
  kind: z.preprocess((v) => (v === '' ? undefined : v), z.enum(CHEATING_KINDS).optional()),
  interview: z.preprocess((v) => (v === '' ? undefined : v), z.enum(INTERVIEW_FILTERS).optional()),
  q: z.string().max(500).optional(),
  sort: z.enum(Object.keys(SORT_COLUMNS) as [keyof typeof SORT_COLUMNS]).default('id'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
}) as z.ZodType<IndexQuery>;

export type IndexQuery = Partial<Record<FilterName, string>> &
  Partial<Record<RangeName, number>> & {
    kind?: (typeof CHEATING_KINDS)[number];
    interview?: InterviewFilter;
    q?: string;
    sort: keyof typeof SORT_COLUMNS;
    dir: 'asc' | 'desc';
    offset: number;
    limit: number;
  };

export function parseIndexQuery(params: URLSearchParams): IndexQuery {
  const parsed = IndexQuerySchema.safeParse(Object.fromEntries(params));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`bad index query: ${issue.path.join('.') || 'query'}: ${issue.message}`);
  }
  return parsed.data;
}

export interface IndexRow {
  id: number;
  runId: string;
  model: string;
  dataset: string;
  split: string;
  taskId: string;
  scaffold: string;
  access: string;
  prompt: string;
  epoch: number;
  outcome: string;
  label: string;
  stopReason: string;
  tamper: string[];
  testEdited: boolean;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** The kinds of a cheating or evaded sample; null for the others, or when the store has no kinds index. */
  kinds: string[] | null;
  /** The interview's reading by rules, `not-asked` when its model could not be asked; null when none was held. */
  interview: InterviewStatus | null;
}

interface RawIndexRow extends Omit<IndexRow, 'tamper' | 'testEdited' | 'kinds'> {
  tamper: string;
  testEdited: number;
  kinds: string | null;
}

/** Said when a query needs an index the store does not hold yet. */
export class NotIndexedError extends UserError {}

function whereOf(db: Database.Database, query: IndexQuery, state: IndexState): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const name of FILTER_NAMES) {
    const value = query[name];
    if (value === undefined || value === '') continue;
    clauses.push(`${FILTER_COLUMNS[name]} = ?`);
    params.push(value);
  }
  for (const name of RANGE_NAMES) {
    const value = query[name];
    if (value === undefined) continue;
    clauses.push(RANGES[name]);
    params.push(value);
  }
  if (query.kind) {
    if (!state.kinds) throw new NotIndexedError('this store has no index of cheating kinds yet, so it cannot filter by kind');
    clauses.push(`${CLASSIFIED_SQL} AND id IN (SELECT sample_id FROM sample_kinds WHERE kind = ?)`);
    params.push(query.kind);
  }
  if (query.interview) {
    const { clause, params: values } = interviewClause(interviewSql(db), query.interview);
    clauses.push(clause);
    params.push(...values);
  }
  if (query.q) {
    clauses.push('id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(transcriptHits(db, query.q, state.transcripts)));
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** One page of the index, and how many samples the filters keep. */
export function queryIndex(db: Database.Database, query: IndexQuery, state: IndexState): { total: number; rows: IndexRow[] } {
  const where = whereOf(db, query, state);
  const kinds = state.kinds
    ? `CASE WHEN ${CLASSIFIED_SQL} THEN (SELECT json_group_array(kind) FROM sample_kinds k WHERE k.sample_id = samples.id) END`
    : 'NULL';
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM samples ${where.sql}`).get(...where.params) as { n: number }).n;
  const order = `${SORT_COLUMNS[query.sort]} ${query.dir.toUpperCase()}, id ${query.dir.toUpperCase()}`;
  const raw = db
    .prepare(
      `SELECT id, run_id AS runId, model, dataset, split, task_id AS taskId, scaffold, access, prompt, epoch, outcome,
        ${LABEL_SQL} AS label, stop_reason AS stopReason, tamper, test_diff != '' AS testEdited,
        input_tokens AS inputTokens, output_tokens AS outputTokens, cost_usd AS costUsd, ${kinds} AS kinds,
        ${interviewSql(db)} AS interview
       FROM samples ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
    .all(...where.params, query.limit, query.offset) as RawIndexRow[];
  const rows = raw.map((r) => ({
    ...r,
    tamper: JSON.parse(r.tamper) as string[],
    testEdited: r.testEdited === 1,
    kinds: r.kinds === null ? null : (JSON.parse(r.kinds) as string[]),
  }));
  return { total, rows };
}

/**
 * The values each filter can take in the store, for the page's menus; `kind` only when the store has kinds indexed,
 * `interview` once any sample was interviewed.
 */
export function indexFacets(db: Database.Database, state: IndexState): Record<FilterName | 'kind' | 'interview', string[]> {
  const out = {} as Record<FilterName | 'kind' | 'interview', string[]>;
  for (const name of FILTER_NAMES) {
    const rows = db.prepare(`SELECT DISTINCT ${FILTER_COLUMNS[name]} AS v FROM samples ORDER BY v`).all() as { v: string }[];
    out[name] = rows.map((r) => r.v);
  }
  const kinds = state.kinds ? (db.prepare('SELECT DISTINCT kind FROM sample_kinds').all() as { kind: string }[]).map((r) => r.kind) : [];
  out.kind = CHEATING_KINDS.filter((k) => kinds.includes(k));
  out.interview = interviewFacet(db);
  return out;
}

export interface RunListing {
  id: string;
  status: string;
  startedAt: string;
  endedAt: string | null;
  samples: number;
  passed: number;
  cheating: number;
}

/** Every run with its sample counts, newest first. */
export function listRunsWithCounts(db: Database.Database): RunListing[] {
  return db
    .prepare(
      `SELECT r.id, r.status, r.started_at AS startedAt, r.ended_at AS endedAt,
        COUNT(s.id) AS samples, COALESCE(SUM(s.outcome = 'passed'), 0) AS passed,
        COALESCE(SUM(${LABEL_SQL.replaceAll('outcome', 's.outcome').replaceAll('tamper', 's.tamper').replaceAll('split', 's.split')} = 'cheating'), 0) AS cheating
       FROM runs r LEFT JOIN samples s ON s.run_id = r.id GROUP BY r.id ORDER BY r.started_at DESC, r.rowid DESC`,
    )
    .all() as RunListing[];
}
