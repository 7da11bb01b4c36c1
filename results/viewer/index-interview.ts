import type Database from 'better-sqlite3';
import { INTERVIEW_READINGS, InterviewSchema } from '../../core/record.js';
import { interviewStatus, type InterviewStatus } from '../interview-answer.js';

/** The interview filter's values: a reading by rules, `not-asked`, or `any` sample that was interviewed. */
export const INTERVIEW_FILTERS = ['any', ...INTERVIEW_READINGS, 'not-asked'] as const;
export type InterviewFilter = (typeof INTERVIEW_FILTERS)[number];

const FUNCTION = 'interview_status';
const registered = new WeakSet<Database.Database>();

/** A stored interview's status, or null when the text is none or no interview (a row is never refused for it). */
function statusOf(json: unknown): InterviewStatus | null {
  if (typeof json !== 'string') return null;
  try {
    const parsed = InterviewSchema.safeParse(JSON.parse(json));
    return parsed.success ? interviewStatus(parsed.data) : null;
  } catch {
    return null;
  }
}

/**
 * The SQL of a sample's interview status (admits, denies, evasive, not-asked; null without an interview): the answer is
 * read by the same rules as the report's, through a function registered on the connection. A store written before
 * interviews were kept has no such column: there every sample has none.
 */
export function interviewSql(db: Database.Database): string {
  const column = db.prepare("SELECT 1 FROM pragma_table_info('samples') WHERE name = 'interview'").get();
  if (!column) return 'NULL';
  if (!registered.has(db)) {
    db.function(FUNCTION, { deterministic: true }, statusOf);
    registered.add(db);
  }
  return `${FUNCTION}(interview)`;
}

/** The filter's clause over a row of the samples table: `any` keeps every interviewed sample, the others their status. */
export function interviewClause(sql: string, filter: InterviewFilter): { clause: string; params: unknown[] } {
  return filter === 'any' ? { clause: `${sql} IS NOT NULL`, params: [] } : { clause: `${sql} = ?`, params: [filter] };
}

/** The filter's values for the page's menu: all of them once any sample was interviewed, none before. */
export function interviewFacet(db: Database.Database): string[] {
  const sql = interviewSql(db);
  if (sql === 'NULL') return [];
  return db.prepare('SELECT 1 FROM samples WHERE interview IS NOT NULL LIMIT 1').get() ? [...INTERVIEW_FILTERS] : [];
}
