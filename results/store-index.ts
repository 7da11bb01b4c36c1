import type Database from 'better-sqlite3';
import type { SampleRecord } from '../core/record.js';
import { tricksOf } from './classify/sync.js';

/**
 * The indexes the store keeps beside its samples so readers need no transcript: each sample's cheating kinds and a
 * trigram index of its transcript's text. Each has a version; a store whose index is missing or older is filled
 * again, once, by the next open for writing.
 */
export const STORE_INDEXES = { kinds: 1, transcripts: 1 } as const;
export type StoreIndexName = keyof typeof STORE_INDEXES;
export type IndexState = Record<StoreIndexName, boolean>;

/** The command that builds the indexes of a store a reader found without them. */
export function indexCommand(storePath: string): string {
  return `impossiblebench store index ${storePath}`;
}

/** Which indexes the open store holds, current: none in a store older than their migration. */
export function indexState(db: Database.Database): IndexState {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'store_indexes'").get();
  const rows = table ? (db.prepare('SELECT name, version FROM store_indexes').all() as { name: string; version: number }[]) : [];
  const built = (name: StoreIndexName) => rows.some((r) => r.name === name && r.version === STORE_INDEXES[name]);
  return { kinds: built('kinds'), transcripts: built('transcripts') };
}

/**
 * The kinds a sample's evidence shows, stored for every pass and evasion (`other` alone when none shows): the kinds of
 * a cheating sample, and what the static classifier reads as a monitor on any pass.
 */
export function evidenceKinds(record: SampleRecord): string[] {
  if (record.outcome !== 'passed' && record.outcome !== 'evaded') return [];
  return [...new Set(tricksOf(record).map((k) => k.kind))];
}

function writeKinds(db: Database.Database, sampleId: number, kinds: readonly string[]): void {
  const insert = db.prepare('INSERT INTO sample_kinds (sample_id, kind) VALUES (?, ?)');
  for (const kind of kinds) insert.run(sampleId, kind);
}

/** The messages' text in one row of the transcript index, keyed by the sample id. */
const INDEX_TEXT = `INSERT INTO transcript_text (rowid, text)
  SELECT sample_id, group_concat(content, char(10)) FROM messages WHERE sample_id = ? GROUP BY sample_id`;

/** Indexes one sample just written (inside its transaction), replacing what an earlier record of its id had. */
export function indexSample(db: Database.Database, sampleId: number, record: SampleRecord): void {
  db.prepare('DELETE FROM sample_kinds WHERE sample_id = ?').run(sampleId);
  db.prepare('DELETE FROM transcript_text WHERE rowid = ?').run(sampleId);
  writeKinds(db, sampleId, evidenceKinds(record));
  db.prepare(INDEX_TEXT).run(sampleId);
}

export interface BackfillSource {
  /** Every pass and evasion of the store, transcripts included, a few at a time. */
  classified(): Iterable<SampleRecord & { id: number }>;
}

/**
 * Fills the indexes a store lacks from the samples it holds, in one transaction: a reader sees either none or all of
 * them. Returns the indexes it built.
 */
export function backfillIndexes(db: Database.Database, source: BackfillSource): StoreIndexName[] {
  const missing = (Object.keys(STORE_INDEXES) as StoreIndexName[]).filter((name) => !indexState(db)[name]);
  if (missing.length === 0) return [];
  return db
    .transaction((): StoreIndexName[] => {
      // Another writer may have built them between the check and this lock.
      const still = missing.filter((name) => !indexState(db)[name]);
      if (still.includes('kinds')) {
        db.exec('DELETE FROM sample_kinds');
        for (const record of source.classified()) writeKinds(db, record.id, evidenceKinds(record));
      }
      if (still.includes('transcripts')) {
        db.exec("INSERT INTO transcript_text (transcript_text) VALUES ('delete-all')");
        db.exec('INSERT INTO transcript_text (rowid, text) SELECT sample_id, group_concat(content, char(10)) FROM messages GROUP BY sample_id');
      }
      const mark = db.prepare('INSERT OR REPLACE INTO store_indexes (name, version, built_at) VALUES (?, ?, ?)');
      for (const name of still) mark.run(name, STORE_INDEXES[name], new Date().toISOString());
      return still;
    })
    .immediate();
}
