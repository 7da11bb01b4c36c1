import type { Logger } from 'pino';
import type { ResultStore, StoredSample } from '../../results/store.js';

/**
 * Whether a stored try goes back to the queue: an `error` is tried again until it has had `retries` more tries, unless
 * another try would only repeat it (a missing image, a test patch that does not apply) or the run is interrupted.
 * A try that ends as an error is recorded as an event and logged either way.
 */
export function retryStored(
  stored: StoredSample,
  opts: { permanent: boolean; maxErrors: number; interrupted: boolean; store: ResultStore; runId: string; log: Logger; sampleId: string },
): boolean {
  if (stored.outcome !== 'error') return false;
  const retry = !opts.permanent && stored.errorCount < opts.maxErrors && !opts.interrupted;
  const event = retry ? 'retry' : opts.permanent ? 'gave_up_certain' : 'gave_up';
  opts.store.addEvent(opts.runId, event, { error: stored.error, errorCount: stored.errorCount }, stored.keyString);
  const note = retry ? 'error; will try again' : opts.permanent ? 'error that another try would repeat; not tried again' : 'error; out of tries';
  opts.log.warn({ sample: opts.sampleId, error: stored.error, errorCount: stored.errorCount }, note);
  return retry;
}
