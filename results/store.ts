import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { packageVersion } from './package-version.js';
import { SampleRecordSchema, type Outcome, type SampleKey, type SampleRecord, type TranscriptMessage } from '../core/record.js';
import { sampleKeyString } from './sample-key.js';
import { backfillIndexes, indexState, type IndexState, type StoreIndexName } from './store-index.js';
import { openReadonly, openWritable } from './store-open.js';
import { messagesOf, toRunInfo, toStoredSample, type RunInfo, type RunRow, type RunStatus, type SampleRow, type StoredSample } from './store-rows.js';
import { writeSample } from './store-write.js';
import { closeBatch, openBatches, recordBatch, type StoredBatch } from './store-batches.js';
import {
  findReferenceRun,
  recordRunReferences,
  runReferences,
  saveReferenceRun,
  type RunReference,
  type StoredReferenceRun,
} from './store-references.js';

export { sampleKeyString } from './sample-key.js';
export type { IndexState, StoreIndexName } from './store-index.js';
export type { RunInfo, RunStatus, StoredSample } from './store-rows.js';
export type { RunReference, SkippedInReference, StoredReferenceRun } from './store-references.js';
export type { StoredBatch } from './store-batches.js';

/** The store used when no `--store` is given: a file in the working directory. */
export const DEFAULT_STORE_FILE = 'impossiblebench.sqlite';

export interface SampleFilter {
  model?: string;
  dataset?: string;
  split?: SampleKey['split'];
  taskId?: string;
  scaffold?: SampleKey['scaffold'];
  access?: SampleKey['access'];
  prompt?: string;
  maxAttempts?: number;
  epoch?: number;
  outcome?: Outcome | readonly Outcome[];
  /** Load each sample's messages (default true). */
  withTranscript?: boolean;
}

export interface StoredEvent {
  id: number;
  runId: string;
  sampleKey: string | null;
  time: string;
  kind: string;
  data: unknown;
}

export interface OpenStoreOptions {
  /** Fail with a one-line error when the file does not exist yet (reports, exports). */
  mustExist?: boolean;
  /** Open the file read-only (implies mustExist): no migration, no write; a run may go on writing (WAL). */
  readonly?: boolean;
}

const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const FILTER_COLUMNS = {
  model: 'model',
  dataset: 'dataset',
  split: 'split',
  taskId: 'task_id',
  scaffold: 'scaffold',
  access: 'access',
  prompt: 'prompt',
  maxAttempts: 'max_attempts',
  epoch: 'epoch',
} as const;

/** A new run id: sortable by time, unique enough to never collide in one store. */
export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/**
 * The results store: one SQLite file holding runs, samples, their messages and run events.
 * Every sample is written in one transaction, so a crash leaves each sample either fully
 * stored or absent; WAL mode lets a report read while a run writes.
 */
export class ResultStore {
  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
  ) {}

  /** The indexes this open built (a store written before them, opened for writing for the first time). */
  builtOnOpen: StoreIndexName[] = [];

  static open(path: string = DEFAULT_STORE_FILE, options: OpenStoreOptions = {}): ResultStore {
    // SQLite's in-memory name must reach it as is: resolved, it would become a file called ":memory:".
    const file = path === ':memory:' ? path : resolve(path);
    if (file !== ':memory:' && existsSync(file) && statSync(file).isDirectory()) throw new UserError(`store ${path} is a directory, not a file`);
    if (file !== ':memory:' && !existsSync(file)) {
      if (options.mustExist || options.readonly) {
        throw new UserError(`no results store at ${path}`, 'pass --store FILE, or make one with `impossiblebench run`');
      }
      if (!existsSync(dirname(file))) throw new UserError(`cannot create store ${path}: folder ${dirname(file)} does not exist`);
    }
    if (options.readonly) return new ResultStore(file, openReadonly(path, file));
    const store = new ResultStore(file, openWritable(path, file));
    try {
      store.builtOnOpen = backfillIndexes(store.db, { classified: () => store.classifiedSamples() });
    } catch (err) {
      store.close();
      throw err;
    }
    return store;
  }

  /** Which of the store's indexes (kinds, transcript text) a reader can use. */
  indexState(): IndexState {
    return indexState(this.db);
  }

  /** The connection, for read-only queries the store has no method for (the viewer's index). */
  get database(): Database.Database {
    return this.db;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ---- runs ----------------------------------------------------------------------------------

  /** Records a new run and returns its id (the given one, or a fresh one). */
  createRun(config: unknown, options: { id?: string; startedAt?: string } = {}): string {
    const id = options.id ?? newRunId();
    if (!RUN_ID_PATTERN.test(id)) {
      throw new UserError(`invalid run id "${id}": use letters, digits, '.', '_' or '-' (at most 100, starting with a letter or digit)`);
    }
    if (this.findRun(id)) throw new UserError(`run ${id} already exists in ${this.path}`, `resume it with --run-id ${id}`);
    this.db
      .prepare('INSERT INTO runs (id, config, package_version, started_at, status) VALUES (?, ?, ?, ?, ?)')
      .run(id, JSON.stringify(config ?? null), packageVersion(), options.startedAt ?? new Date().toISOString(), 'running');
    return id;
  }

  findRun(id: string): RunInfo | undefined {
    const row = this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunRow | undefined;
    return row && toRunInfo(row);
  }

  /** The run, or a one-line error naming the store and the runs it does hold. */
  getRun(id: string): RunInfo {
    const run = this.findRun(id);
    if (run) return run;
    const recent = this.listRuns()
      .slice(-3)
      .map((r) => r.id);
    throw new UserError(`no run ${id} in ${this.path}${recent.length ? ` (latest: ${recent.reverse().join(', ')})` : ' (it holds no runs)'}`);
  }

  /** All runs, oldest first. */
  listRuns(): RunInfo[] {
    return (this.db.prepare('SELECT * FROM runs ORDER BY started_at, rowid').all() as RunRow[]).map(toRunInfo);
  }

  latestRun(): RunInfo | undefined {
    const row = this.db.prepare('SELECT * FROM runs ORDER BY started_at DESC, rowid DESC LIMIT 1').get() as RunRow | undefined;
    return row && toRunInfo(row);
  }

  /** Marks an existing run as running again (resume): its finished samples stay. */
  resumeRun(id: string): RunInfo {
    this.getRun(id);
    this.db.prepare("UPDATE runs SET status = 'running', ended_at = NULL WHERE id = ?").run(id);
    return this.getRun(id);
  }

  /** Replaces a run's recorded config: a resume that changes a setting outside the matrix (its budget) records it. */
  setRunConfig(id: string, config: unknown): void {
    this.getRun(id);
    this.db.prepare('UPDATE runs SET config = ? WHERE id = ?').run(JSON.stringify(config ?? null), id);
  }

  finishRun(id: string, status: Exclude<RunStatus, 'running'> = 'finished', endedAt = new Date().toISOString()): void {
    this.getRun(id);
    this.db.prepare('UPDATE runs SET status = ?, ended_at = ? WHERE id = ?').run(status, endedAt, id);
  }

  // ---- samples -------------------------------------------------------------------------------

  /**
   * Writes one sample and its messages in a single transaction. A key holds at most one sample:
   * an earlier `error` record of the same key is replaced in place (same id, error count carried
   * over), while overwriting a finished sample is a bug and throws.
   */
  saveSample(runId: string, record: SampleRecord): StoredSample {
    const parsed = SampleRecordSchema.safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`invalid sample record at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    const rec = parsed.data;
    const id = this.db
      .transaction((): number => {
        this.getRun(runId);
        return writeSample(this.db, runId, rec);
      })
      .immediate();
    return this.getSampleById(id)!;
  }

  /** Keys (`sampleKeyString`) of the run's samples that finished with an outcome other than error: skip these on resume. */
  finishedKeys(runId: string): Set<string> {
    const rows = this.db.prepare("SELECT sample_key FROM samples WHERE run_id = ? AND outcome != 'error'").all(runId) as { sample_key: string }[];
    return new Set(rows.map((r) => r.sample_key));
  }

  /** For each key that has ever ended in error: how many times (to cap retries). */
  errorCounts(runId: string): Map<string, number> {
    const rows = this.db.prepare('SELECT sample_key, error_count FROM samples WHERE run_id = ? AND error_count > 0').all(runId) as {
      sample_key: string;
      error_count: number;
    }[];
    return new Map(rows.map((r) => [r.sample_key, r.error_count]));
  }

  /** Samples of the run by outcome (all four present, zero when absent). */
  outcomeCounts(runId: string): Record<Outcome, number> {
    const counts: Record<Outcome, number> = { passed: 0, failed: 0, evaded: 0, error: 0 };
    const rows = this.db.prepare('SELECT outcome, COUNT(*) AS n FROM samples WHERE run_id = ? GROUP BY outcome').all(runId) as {
      outcome: Outcome;
      n: number;
    }[];
    for (const r of rows) counts[r.outcome] = r.n;
    return counts;
  }

  listSamples(runId: string, filter: SampleFilter = {}): StoredSample[] {
    return [...this.iterateSamples(runId, filter)];
  }

  /** Samples in the order they were stored, read in pages so a large run never sits in memory at once. */
  *iterateSamples(runId: string, filter: SampleFilter = {}, pageSize = 200): Generator<StoredSample> {
    const where = ['run_id = ?', 'id > ?'];
    const filterParams: unknown[] = [];
    for (const [field, column] of Object.entries(FILTER_COLUMNS) as [keyof typeof FILTER_COLUMNS, string][]) {
      const value = filter[field];
      if (value !== undefined) {
        where.push(`${column} = ?`);
        filterParams.push(value);
      }
    }
    if (filter.outcome !== undefined) {
      const outcomes = typeof filter.outcome === 'string' ? [filter.outcome] : [...filter.outcome];
      where.push(`outcome IN (${outcomes.map(() => '?').join(', ') || 'NULL'})`);
      filterParams.push(...outcomes);
    }
    // Keyset pages: each page is one finished query, so the caller may use the store between pages.
    const page = this.db.prepare(`SELECT * FROM samples WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`);
    let after = 0;
    for (;;) {
      const rows = page.all(runId, after, ...filterParams, pageSize) as SampleRow[];
      if (rows.length === 0) return;
      const messages = filter.withTranscript === false ? new Map<number, TranscriptMessage[]>() : this.messagesOf(rows.map((r) => r.id));
      for (const row of rows) yield toStoredSample(row, messages.get(row.id) ?? []);
      after = rows[rows.length - 1]!.id;
      if (rows.length < pageSize) return;
    }
  }

  /** One sample of a run by its key, key string or row id. */
  getSample(runId: string, key: SampleKey | string | number): StoredSample | undefined {
    if (typeof key === 'number') {
      const sample = this.getSampleById(key);
      return sample?.runId === runId ? sample : undefined;
    }
    const keyString = typeof key === 'string' ? key : sampleKeyString(key);
    const row = this.db.prepare('SELECT * FROM samples WHERE run_id = ? AND sample_key = ?').get(runId, keyString) as SampleRow | undefined;
    return row && toStoredSample(row, this.messagesOf([row.id]).get(row.id) ?? []);
  }

  private getSampleById(id: number): StoredSample | undefined {
    const row = this.db.prepare('SELECT * FROM samples WHERE id = ?').get(id) as SampleRow | undefined;
    return row && toStoredSample(row, this.messagesOf([row.id]).get(row.id) ?? []);
  }

  private messagesOf(sampleIds: number[]): Map<number, TranscriptMessage[]> {
    return messagesOf(this.db, sampleIds);
  }

  /** Every pass and evasion in the store, transcripts included, a few at a time: what the kinds index is filled from. */
  private *classifiedSamples(): Generator<StoredSample> {
    for (const run of this.listRuns()) yield* this.iterateSamples(run.id, { outcome: ['passed', 'evaded'] }, 20);
  }

  /** The scores an imported log gave a sample, by scorer, as it wrote them (JSON). */
  saveSampleScores(sampleId: number, scores: Record<string, unknown>): void {
    const insert = this.db.prepare('INSERT OR REPLACE INTO sample_scores (sample_id, scorer, score) VALUES (?, ?, ?)');
    for (const [scorer, score] of Object.entries(scores)) insert.run(sampleId, scorer, JSON.stringify(score));
  }

  /** A sample's scores from its imported log; empty for a sample a run of ours made, or a store without the table. */
  sampleScores(sampleId: number): Record<string, unknown> {
    const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sample_scores'").get();
    if (!exists) return {};
    const rows = this.db.prepare('SELECT scorer, score FROM sample_scores WHERE sample_id = ? ORDER BY scorer').all(sampleId) as {
      scorer: string;
      score: string;
    }[];
    return Object.fromEntries(rows.map((r) => [r.scorer, JSON.parse(r.score) as unknown]));
  }

  // ---- events --------------------------------------------------------------------------------

  /** Appends a run event (start, resume, interrupt, retry, ...); `sampleKey` ties it to one sample. */
  addEvent(runId: string, kind: string, data: unknown = {}, sampleKey?: SampleKey | string): number {
    const key = sampleKey === undefined ? null : typeof sampleKey === 'string' ? sampleKey : sampleKeyString(sampleKey);
    try {
      const info = this.db
        .prepare('INSERT INTO events (run_id, sample_key, time, kind, data) VALUES (?, ?, ?, ?, ?)')
        .run(runId, key, new Date().toISOString(), kind, JSON.stringify(data ?? null));
      return Number(info.lastInsertRowid);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') this.getRun(runId);
      throw err;
    }
  }

  listEvents(runId: string, kind?: string): StoredEvent[] {
    const rows = (
      kind === undefined
        ? this.db.prepare('SELECT * FROM events WHERE run_id = ? ORDER BY id').all(runId)
        : this.db.prepare('SELECT * FROM events WHERE run_id = ? AND kind = ? ORDER BY id').all(runId, kind)
    ) as { id: number; run_id: string; sample_key: string | null; time: string; kind: string; data: string }[];
    return rows.map((r) => ({ id: r.id, runId: r.run_id, sampleKey: r.sample_key, time: r.time, kind: r.kind, data: JSON.parse(r.data) as unknown }));
  }

  // ---- reference runs ------------------------------------------------------------------------

  /** A reference run kept by an earlier run of the same task, image and limits. */
  findReferenceRun(key: string): StoredReferenceRun | undefined {
    return findReferenceRun(this.db, key);
  }

  saveReferenceRun(ref: StoredReferenceRun): void {
    saveReferenceRun(this.db, ref);
  }

  recordRunReferences(runId: string, rows: readonly RunReference[]): void {
    recordRunReferences(this.db, runId, rows);
  }

  /** What a run made of its tasks' reference runs: the environment-broken tasks are those not resolved. */
  runReferences(runId: string): RunReference[] {
    return runReferences(this.db, runId);
  }

  // ---- provider batches ----------------------------------------------------------------------

  /** Keeps a batch just submitted, so a command killed while it runs finds it again. */
  recordBatch(batch: Omit<StoredBatch, 'closedAt'>): void {
    recordBatch(this.db, batch);
  }

  /** A run's batches for `job` whose results are not stored yet. */
  openBatches(runId: string, job: string): StoredBatch[] {
    return openBatches(this.db, runId, job);
  }

  /** Marks a batch's results as read and stored. */
  closeBatch(id: string): void {
    closeBatch(this.db, id);
  }

  /** The schema version of the open file. */
  schemaVersion(): number {
    return (this.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v;
  }
}

/** Opens (creating when needed) the store at `path`, default `impossiblebench.sqlite` in the working directory. */
export function openStore(path?: string, options?: OpenStoreOptions): ResultStore {
  return ResultStore.open(path, options);
}
