import type Database from 'better-sqlite3';

/** A LIKE pattern that matches `text` anywhere, its own % and _ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The trigram index finds strings of three characters or more; shorter ones are scanned for. */
const TRIGRAM = 3;

/**
 * An FTS5 query that holds every trigram of `text`: each a quoted string, so no character of the text is read as
 * query syntax. Without positions (detail=none) it names the samples holding all of them, a superset of the hits.
 */
export function trigramQuery(text: string): string | null {
  const chars = Array.from(text);
  if (chars.length < TRIGRAM) return null;
  const grams = new Set<string>();
  for (let i = 0; i + TRIGRAM <= chars.length; i++) grams.add(chars.slice(i, i + TRIGRAM).join(''));
  return [...grams].map((g) => `"${g.replaceAll('"', '""')}"`).join(' AND ');
}

/**
 * The samples whose transcript holds `text` (ASCII letters in any case), by id. With the transcript index, its
 * candidates are confirmed against their own messages; without it, or for a text under three characters, one scan of
 * every message.
 */
export function transcriptHits(db: Database.Database, text: string, indexed: boolean): number[] {
  const fts = indexed ? trigramQuery(text) : null;
  const like = containsPattern(text);
  const rows = fts
    ? db
        .prepare(
          // EXISTS stops at a sample's first matching message: a common string confirms in one message, not all.
          `SELECT t.rowid AS id FROM transcript_text t
           WHERE transcript_text MATCH ?
             AND EXISTS (SELECT 1 FROM messages m WHERE m.sample_id = t.rowid AND m.content LIKE ? ESCAPE '\\')`,
        )
        .all(fts, like)
    : db.prepare("SELECT DISTINCT sample_id AS id FROM messages WHERE content LIKE ? ESCAPE '\\'").all(like);
  return (rows as { id: number }[]).map((r) => r.id);
}
