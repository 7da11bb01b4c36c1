import Database from 'better-sqlite3';
import { UserError } from '../core/errors.js';
import { MIGRATIONS, type Migration, MIN_READABLE_VERSION, SCHEMA_VERSION } from './schema.js';

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

/** Rewrites part of a table's stored CREATE statement in place; the schema cookie is bumped so every connection rereads it. */
function editSchema(db: Database.Database, edit: NonNullable<Migration['schemaEdit']>): void {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(edit.table) as { sql: string } | undefined;
  // Already edited (a store rolled back by hand to an earlier migration) is fine; anything else is not this schema.
  if (row?.sql.includes(edit.to)) return;
  if (!row?.sql.includes(edit.from)) throw new Error(`table ${edit.table} holds neither ${edit.from} nor ${edit.to}`);
  const cookie = db.pragma('schema_version', { simple: true }) as number;
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    db.prepare("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?").run(row.sql.replace(edit.from, edit.to), edit.table);
    db.pragma(`schema_version = ${cookie + 1}`);
  } finally {
    db.pragma('writable_schema = OFF');
    db.unsafeMode(false);
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
      if (m.schemaEdit) editSchema(db, m.schemaEdit);
      db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.description,
        new Date().toISOString(),
      );
    }).immediate();
  }
}
