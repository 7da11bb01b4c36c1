import { closeSync, openSync, writeSync } from 'node:fs';
import { strToU8 } from 'fflate';
import { writeWithAtomic } from '../../core/atomic-write.js';
import { ZipEntries } from './zip-entries.js';

/**
 * Writes a log file entry by entry, so a large log never sits in memory at once, into a temporary file renamed into
 * place once complete: either the `.eval` zip, or the one JSON document of the `.json` format.
 */
export interface LogWriter {
  /** One sample, with its entry name in the zip. */
  sample(name: string, sample: unknown): void;
  /** The entries after the samples, and the end of the file. */
  finish(rest: { header: object; start: object; summaries: unknown[]; reductions: unknown[] }): void;
}

/** Writes into `path` atomically through a writer; the writer's work happens inside `fill`. */
export async function writeLog(path: string, format: 'eval' | 'json', mtime: Date, fill: (w: LogWriter) => void | Promise<void>): Promise<void> {
  await writeWithAtomic(path, async (temp) => {
    const fd = openSync(temp, 'w');
    try {
      const w = format === 'eval' ? evalWriter(fd, mtime) : jsonWriter(fd);
      await fill(w);
    } finally {
      closeSync(fd);
    }
  });
}

function evalWriter(fd: number, mtime: Date): LogWriter {
  const zip = new ZipEntries(fd, mtime);
  const add = (name: string, value: unknown) => zip.add(name, strToU8(JSON.stringify(value)));
  return {
    sample: add,
    finish({ header, start, summaries, reductions }) {
      // Inspect's entries; the journal's start comes after the samples here, since it names every sample id.
      add('_journal/start.json', start);
      add('_journal/summaries/1.json', summaries);
      add('summaries.json', summaries);
      add('reductions.json', reductions);
      add('header.json', header);
      zip.end();
    },
  };
}

function jsonWriter(fd: number): LogWriter {
  let first = true;
  writeSync(fd, '{"samples":[');
  return {
    sample(_name, sample) {
      writeSync(fd, `${first ? '' : ','}${JSON.stringify(sample)}`);
      first = false;
    },
    finish({ header, reductions }) {
      const rest = JSON.stringify({ ...header, reductions });
      // The header's fields follow the samples in the same object.
      writeSync(fd, `],${rest.slice(1)}`);
    },
  };
}
