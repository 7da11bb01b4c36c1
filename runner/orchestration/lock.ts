import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { logPathFor } from '../wiring/logging.js';

/** The lock file of a run: beside the store, named like its log. */
export function lockPathFor(storePath: string, runId: string): string {
  return logPathFor(storePath, runId).replace(/\.log$/, '.lock');
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid holding a run's lock, when that process still exists. */
export function lockHolder(storePath: string, runId: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPathFor(storePath, runId), 'utf8'), 10);
    return Number.isInteger(pid) && processAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One process per run at a time: a lock file beside the store holds the pid. A lock left by a
 * process that no longer exists (killed) is taken over. Returns the unlock function.
 */
export function lockRun(storePath: string, runId: string): () => void {
  const path = lockPathFor(storePath, runId);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = lockHolder(storePath, runId);
      if (pid !== undefined && pid !== process.pid) {
        throw new UserError(`run ${runId} is being run right now by process ${pid}`, `wait for it, or stop it (kill ${pid}) and resume`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new UserError(`could not lock run ${runId} (${path})`);
}
