/**
 * The store's schema as an ordered list of migrations. Each runs once, in its own transaction,
 * and is recorded in `schema_migrations`; never edit a shipped migration, append a new one.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
  /**
   * An edit of a table's stored CREATE statement that no row breaks (a CHECK made looser): SQLite's documented way to
   * change a constraint of a table others reference, where rebuilding it would cascade their rows away.
   */
  schemaEdit?: { table: string; from: string; to: string };
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'runs, samples, messages, events',
    sql: `
      CREATE TABLE runs (
        id              TEXT PRIMARY KEY,
        config          TEXT NOT NULL,
        package_version TEXT NOT NULL,
        started_at      TEXT NOT NULL,
        ended_at        TEXT,
        status          TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted', 'failed'))
      );

      CREATE TABLE samples (
        id              INTEGER PRIMARY KEY,
        run_id          TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        sample_key      TEXT NOT NULL,
        model           TEXT NOT NULL,
        dataset         TEXT NOT NULL,
        split           TEXT NOT NULL,
        task_id         TEXT NOT NULL,
        scaffold        TEXT NOT NULL,
        access          TEXT NOT NULL,
        prompt          TEXT NOT NULL,
        max_attempts    INTEGER NOT NULL,
        epoch           INTEGER NOT NULL,
        outcome         TEXT NOT NULL CHECK (outcome IN ('passed', 'failed', 'evaded', 'error')),
        stop_reason     TEXT NOT NULL,
        attempts        INTEGER NOT NULL,
        input_tokens    INTEGER NOT NULL,
        output_tokens   INTEGER NOT NULL,
        cost_usd        REAL,
        started_at      TEXT NOT NULL,
        ended_at        TEXT NOT NULL,
        wall_ms         REAL NOT NULL,
        source_diff     TEXT NOT NULL,
        test_diff       TEXT NOT NULL,
        outside_changes TEXT NOT NULL,
        grading_log     TEXT NOT NULL,
        error           TEXT,
        -- how many error records this key has had, including the current one when it is an error
        error_count     INTEGER NOT NULL DEFAULT 0,
        UNIQUE (run_id, sample_key)
      );
      CREATE INDEX samples_run_outcome ON samples (run_id, outcome);

      CREATE TABLE messages (
        sample_id    INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
        idx          INTEGER NOT NULL,
        role         TEXT NOT NULL,
        content      TEXT NOT NULL,
        tool_calls   TEXT,
        tool_call_id TEXT,
        name         TEXT,
        PRIMARY KEY (sample_id, idx)
      );

      CREATE TABLE events (
        id         INTEGER PRIMARY KEY,
        run_id     TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        sample_key TEXT,
        time       TEXT NOT NULL,
        kind       TEXT NOT NULL,
        data       TEXT NOT NULL
      );
      CREATE INDEX events_run ON events (run_id, id);
    `,
  },
  {
    version: 2,
    description: 'signs of harness tampering per sample',
    sql: `ALTER TABLE samples ADD COLUMN tamper TEXT NOT NULL DEFAULT '[]';`,
  },
  {
    version: 3,
    description: 'prompt-cache tokens and refusals per sample',
    sql: `
      ALTER TABLE samples ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE samples ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE samples ADD COLUMN refusals INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 4,
    description: 'cheating kinds and a transcript text index per sample, filled once by the store',
    // The trigram index finds any substring of three characters or more; detail=none keeps it small, and each hit is
    // confirmed against the messages. Contentless: the text stays in messages alone. Rows are keyed by the sample id.
    sql: `
      CREATE TABLE sample_kinds (
        sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
        kind      TEXT NOT NULL,
        PRIMARY KEY (sample_id, kind)
      ) WITHOUT ROWID;
      CREATE INDEX sample_kinds_kind ON sample_kinds (kind, sample_id);
      CREATE VIRTUAL TABLE transcript_text USING fts5(text, content='', contentless_delete=1, tokenize='trigram', detail=none);
      CREATE TABLE store_indexes (name TEXT PRIMARY KEY, version INTEGER NOT NULL, built_at TEXT NOT NULL);
    `,
  },
  {
    version: 5,
    description: "how each sample's impossible variant was made",
    // JSON of the sample's `mutation`; NULL for originals and for samples stored before it was kept.
    sql: `ALTER TABLE samples ADD COLUMN mutation TEXT;`,
  },
  {
    version: 6,
    description: "reference runs of SWE tasks, and what each run made of its tasks' references",
    // reference_runs is a cache across runs, keyed by everything the run depends on (task, image id, limits): the test
    // command's raw output, gzip'd, so a later reader parses it with its own parser. run_references is what one run
    // used: each task's verdict as graded then, so a report reads it without parsing anything.
    sql: `
      CREATE TABLE reference_runs (
        key         TEXT PRIMARY KEY,
        task_id     TEXT NOT NULL,
        image       TEXT NOT NULL,
        limits      TEXT NOT NULL,
        made_at     TEXT NOT NULL,
        duration_ms REAL NOT NULL,
        run         BLOB NOT NULL
      );
      CREATE TABLE run_references (
        run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        dataset       TEXT NOT NULL,
        task_id       TEXT NOT NULL,
        reference_key TEXT NOT NULL,
        resolved      INTEGER NOT NULL,
        reason        TEXT NOT NULL,
        -- JSON: the graded tests that did not pass [{id, status, why}], and those skipped there [{id, reason}]
        not_passed    TEXT NOT NULL,
        skipped       TEXT NOT NULL,
        limits        TEXT NOT NULL,
        PRIMARY KEY (run_id, dataset, task_id)
      );
    `,
  },
  {
    version: 7,
    description: 'a run can stop at its budget',
    sql: '',
    schemaEdit: {
      table: 'runs',
      from: "CHECK (status IN ('running', 'finished', 'interrupted', 'failed'))",
      to: "CHECK (status IN ('running', 'finished', 'interrupted', 'failed', 'budget_reached'))",
    },
  },
  {
    version: 8,
    description: "the providers' batches a classify or monitor has open, so a killed command finds them again",
    // job names what the batch asks (the command, the model, the prompt's sha256), so a rerun of the same command finds
    // it; requests is JSON {custom id: sample key}; closed_at is set once its results are read and stored.
    sql: `
      CREATE TABLE model_batches (
        id           TEXT PRIMARY KEY,
        run_id       TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        job          TEXT NOT NULL,
        requests     TEXT NOT NULL,
        submitted_at TEXT NOT NULL,
        closed_at    TEXT
      );
      CREATE INDEX model_batches_job ON model_batches (run_id, job);
    `,
  },
  {
    version: 9,
    description: 'the scores an imported log gave each sample, as it wrote them',
    // score is the Inspect score as JSON (value, answer, explanation, metadata): kept whatever our record makes of it.
    sql: `
      CREATE TABLE sample_scores (
        sample_id INTEGER NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
        scorer    TEXT NOT NULL,
        score     TEXT NOT NULL,
        PRIMARY KEY (sample_id, scorer)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 10,
    description: 'what the agent said of its work when asked once graded (--interview)',
    // JSON of the sample's `interview`; NULL when the run asked none.
    sql: `ALTER TABLE samples ADD COLUMN interview TEXT;`,
  },
];

/**
 * The oldest schema a read-only reader opens: every later migration only adds indexes, which readers look for
 * and do without when they are missing, a nullable column a row without it reads as empty, or tables a reader
 * without them reads as empty.
 */
export const MIN_READABLE_VERSION = 3;

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
