import { basename, dirname, extname, join } from 'node:path';
import pino, { type Logger } from 'pino';

/** The run's JSON-lines log lives beside its store: `results.sqlite` → `results.RUNID.log`. */
export function logPathFor(storePath: string, runId: string): string {
  return join(dirname(storePath), `${basename(storePath, extname(storePath))}.${runId}.log`);
}

/**
 * A pino logger appending JSON lines to a file. Writes are synchronous so the log is complete
 * up to the last line even when the process is killed.
 */
export function fileLogger(path: string, bindings: Record<string, unknown> = {}): { log: Logger; close: () => void } {
  const destination = pino.destination({ dest: path, sync: true, mkdir: true });
  const log = pino({ level: process.env.IMPOSSIBLEBENCH_LOG_LEVEL ?? 'info', base: { pid: process.pid, ...bindings } }, destination);
  return {
    log,
    close: () => {
      try {
        destination.flushSync();
      } catch {
        // already closed or never opened: nothing left to flush
      }
      destination.end();
    },
  };
}
