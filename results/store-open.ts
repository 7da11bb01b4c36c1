import Database from 'better-sqlite3';
import { UserError } from '../core/errors.js';
import { MIGRATIONS, MIN_READABLE_VERSION, SCHEMA_VERSION } from './schema.js';

/** Opens the file for writing: WAL, durable commits, foreign keys, and every migration it lacks. */
export function openWritable(path: string, file: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (err) {
    throw new UserError(`cannot open store ${path}: ${(err as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 10000');
    db.pragma('journal_mode = WAL');
    // FULL: a sample whose transaction committed survives even a power cut, not only a kill.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
  } catch (err) {
    db.close();
    throw openError(err, path);
  }
  return db;
}

function openError(err: unknown, path: string): UserError {
  if (err instanceof UserError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new UserError(`${path} is not an impossiblebench results store (not a SQLite database)`);
  }
  return new UserError(`cannot open store ${path}: ${(err as Error).message}`);
}

/** Opens the file read-only: no migration; a schema from MIN_READABLE_VERSION on is read as it is. */
export function openReadonly(path: string, file: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 10000');
    const version = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
    if (version < MIN_READABLE_VERSION || version > SCHEMA_VERSION) {
      throw new UserError(
        `store ${path} has schema version ${version}, this build reads ${MIN_READABLE_VERSION} to ${SCHEMA_VERSION}`,
        version > SCHEMA_VERSION ? 'upgrade impossiblebench' : 'open it once with a writing command of this build, or upgrade impossiblebench',
      );
    }
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot read store ${path}: ${(err as Error).message}`);
  }
}

function migrate(db: Database.Database, path: string): void {
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  if (!tables.has('schema_migrations')) {
    if (tables.size > 0) throw new UserError(`${path} is a SQLite database but not an impossiblebench results store`);
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)');
  }
  const current = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new UserError(`store ${path} has schema version ${current}, newer than this build knows (${SCHEMA_VERSION})`, 'upgrade impossiblebench');
  }
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      // Another process may have migrated between our read and this write lock.
      const done = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(m.version);
      if (done) return;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.description,
        new Date().toISOString(),
      );
    }).immediate();
  }
}
