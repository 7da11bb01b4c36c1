import Database from 'better-sqlite3';

/**
 * Turns a store into one written before the kinds and transcript indexes (schema 3): their tables (and the later
 * mutation column and reference tables) dropped and their migrations unrecorded, as a store of an older build has it.
 */
export function dropIndexes(path: string): void {
  const db = new Database(path);
  try {
    db.exec(`
      DROP TABLE sample_kinds;
      DROP TABLE transcript_text;
      DROP TABLE store_indexes;
      ALTER TABLE samples DROP COLUMN mutation;
      ALTER TABLE samples DROP COLUMN interview;
      DROP TABLE run_references;
      DROP TABLE reference_runs;
      DROP TABLE model_batches;
      DROP TABLE sample_scores;
      DELETE FROM schema_migrations WHERE version >= 4;
    `);
  } finally {
    db.close();
  }
}
