/** The one atomic writer: readers see the old file or the new one, never half of it (reports, exports, the dataset cache). */
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, fsyncSync, openSync, closeSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { once } from 'node:events';
import { UserError } from './errors.js';

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

function checkTarget(path: string): string {
  const target = resolve(path);
  if (!existsSync(dirname(target))) throw new UserError(`cannot write ${path}: folder ${dirname(target)} does not exist`);
  if (existsSync(target) && statSync(target).isDirectory()) throw new UserError(`cannot write ${path}: it is a directory`);
  return target;
}

/** Errors of the machine rather than of the program (no permission, a read-only or full disk), told in one line. */
const WRITE_FAILURES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  ENOTDIR: 'a part of the path is a file, not a folder',
};

function asWriteError(path: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code && WRITE_FAILURES[code] ? new UserError(`cannot write ${path}: ${WRITE_FAILURES[code]}`) : err;
}

/** Cleans up after a failed write; the failure itself is what the caller reports. */
function removeTemp(temp: string): void {
  try {
    rmSync(temp, { force: true });
  } catch {
    // a temporary file that could not be made cannot be left behind either
  }
}

/** Flushes the finished temporary file to disk, then renames it over the target in one step. */
function moveIntoPlace(temp: string, target: string): void {
  const fd = openSync(temp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
}

/** Writes a whole file so that readers see the old file or the new one, never half of it. */
export function writeFileAtomic(path: string, data: string): void {
  const target = checkTarget(path);
  const temp = tempPathFor(target);
  try {
    writeFileSync(temp, data);
    moveIntoPlace(temp, target);
  } catch (err) {
    removeTemp(temp);
    throw asWriteError(path, err);
  }
}

/**
 * Lets `write` fill a temporary file beside `path` (it gets the temporary path) and renames it into place only once
 * `write` has finished: for writers that make their own file, such as the Parquet writer.
 */
export async function writeWithAtomic<T>(path: string, write: (temp: string) => T | Promise<T>): Promise<T> {
  const target = checkTarget(path);
  const temp = tempPathFor(target);
  try {
    const result = await write(temp);
    moveIntoPlace(temp, target);
    return result;
  } catch (err) {
    removeTemp(temp);
    throw asWriteError(path, err);
  }
}

/** Streams lines into a temporary file beside `path` and renames it into place only when all were written. */
export async function writeLinesAtomic(path: string, lines: Iterable<string> | AsyncIterable<string>): Promise<number> {
  const target = checkTarget(path);
  const temp = tempPathFor(target);
  const out = createWriteStream(temp, { flags: 'wx' });
  let count = 0;
  let failure: Error | undefined;
  // Keep a late stream error from going unhandled; it is rethrown below.
  out.on('error', (err) => (failure ??= err));
  try {
    await once(out, 'open');
    for await (const line of lines) {
      if (!out.write(`${line}\n`)) await once(out, 'drain');
      count++;
    }
    out.end();
    await once(out, 'finish');
    if (failure) throw failure;
    moveIntoPlace(temp, target);
    return count;
  } catch (err) {
    out.destroy();
    removeTemp(temp);
    throw asWriteError(path, err);
  }
}
