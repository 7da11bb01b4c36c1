import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { writeWithAtomic } from '../core/atomic-write.js';
import { EXPORT_COLUMNS, keepsStatistics, parquetSchema, parquetValue, type Column } from './export-columns.js';
import { packageVersion } from './package-version.js';

/**
 * A row group closes at this many rows or this many characters of row text, whichever comes first: transcripts of
 * repository tasks run to megabytes, so counting rows alone could hold a whole run in memory.
 */
const GROUP_ROWS = 1000;
const GROUP_CHARS = 64 * 1024 * 1024;

/**
 * Writes rows as one Parquet file with the export's fixed schema, a row group at a time; the file appears only once
 * complete. Returns the number of rows written.
 */
export async function writeParquetAtomic(
  path: string,
  rows: Iterable<object>,
  options: { columns?: Column[]; groupRows?: number } = {},
): Promise<number> {
  const { columns = EXPORT_COLUMNS, groupRows = GROUP_ROWS } = options;
  return writeWithAtomic(path, (temp) => {
    const writer = new ParquetWriter({ writer: fileWriter(temp), schema: parquetSchema(columns), createdBy: `impossiblebench ${packageVersion()}` });
    let batch: Record<string, unknown>[] = [];
    let chars = 0;
    let count = 0;
    const flush = () => {
      if (batch.length === 0) return;
      const rowsOfBatch = batch;
      const columnData = columns.map((c) => ({
        name: c.name,
        data: rowsOfBatch.map((r) => parquetValue(c, r[c.name])),
        statistics: keepsStatistics(c),
      }));
      // The writer is synchronous on a file writer; a promise here would mean an unexpected writer.
      if (writer.write({ columnData, rowGroupSize: rowsOfBatch.length }) !== undefined)
        throw new Error('the Parquet writer unexpectedly went asynchronous');
      batch = [];
      chars = 0;
    };
    for (const row of rows) {
      batch.push(row as Record<string, unknown>);
      chars += textSize(row);
      count++;
      if (batch.length >= groupRows || chars >= GROUP_CHARS) flush();
    }
    flush();
    writer.finish();
    return count;
  });
}

/** Characters of text a row holds, roughly: what decides its memory while its group is being built. */
function textSize(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + textSize(v), 0);
  if (value && typeof value === 'object') return Object.values(value).reduce<number>((n, v) => n + textSize(v), 0);
  return 8;
}
