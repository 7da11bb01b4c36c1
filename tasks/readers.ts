import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { UserError } from '../core/errors.js';
import type { RowProblem } from './rows.js';

/** Raw rows of one data file, each with its 1-based position, plus rows that could not be read. */
export interface RawRows {
  file: string;
  format: FileFormat;
  rows: { row: number; value: unknown }[];
  problems: RowProblem[];
}

export type FileFormat = 'json' | 'jsonl' | 'parquet';

/** Every form a dataset argument takes. */
export const DATASET_FORMS = 'a dataset is builtin:lcb, builtin:swe, hf:OWNER/NAME, or a .json, .jsonl or .parquet file';

export function formatOf(path: string): FileFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  if (ext === '.parquet') return 'parquet';
  return undefined;
}

/** Reads a .json array, a .jsonl file or a .parquet file. An unreadable or empty file is one UserError. */
export async function readRows(file: string): Promise<RawRows> {
  const format = formatOf(file);
  let size: number;
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new UserError(`${file}: is a folder, not a data file`);
    size = info.size;
  } catch (err) {
    if (err instanceof UserError) throw err;
    // A mistyped dataset name (`lcb` for `builtin:lcb`) lands here: name every form a dataset takes.
    throw new UserError(`${file}: cannot read: ${describeFsError(err)}`, format ? undefined : DATASET_FORMS);
  }
  if (!format) throw new UserError(`${file}: unknown file type (expected .json, .jsonl or .parquet)`);
  if (size === 0) throw new UserError(`${file}: the file is empty`);
  if (format === 'parquet') return readParquet(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`${file}: cannot read: ${describeFsError(err)}`);
  }
  if (!text.trim()) throw new UserError(`${file}: the file is empty`);
  return format === 'json' ? readJsonArray(file, text) : readJsonLines(file, text);
}

function readJsonArray(file: string, text: string): RawRows {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(value)) throw new UserError(`${file}: expected a JSON array of rows, found ${typeName(value)}`);
  if (value.length === 0) throw new UserError(`${file}: the array holds no rows`);
  return { file, format: 'json', rows: value.map((v, i) => ({ row: i + 1, value: v })), problems: [] };
}

function readJsonLines(file: string, text: string): RawRows {
  const rows: RawRows['rows'] = [];
  const problems: RowProblem[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      rows.push({ row: i + 1, value: JSON.parse(line) });
    } catch (err) {
      problems.push({ file, row: i + 1, field: '(line)', message: `invalid JSON: ${(err as Error).message}` });
    }
  });
  return { file, format: 'jsonl', rows, problems };
}

async function readParquet(file: string): Promise<RawRows> {
  let objects: Record<string, unknown>[];
  try {
    const buffer = await asyncBufferFromFile(file);
    objects = await parquetReadObjects({ file: buffer });
  } catch (err) {
    throw new UserError(`${file}: not a readable parquet file: ${(err as Error).message}`);
  }
  if (objects.length === 0) throw new UserError(`${file}: the parquet file holds no rows`);
  return { file, format: 'parquet', rows: objects.map((o, i) => ({ row: i + 1, value: plain(o) })), problems: [] };
}

/** Parquet int64 arrives as BigInt: numbers where they fit, so schemas see ordinary JSON values. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function describeFsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EACCES') return 'permission denied';
  return e.message ?? String(err);
}
