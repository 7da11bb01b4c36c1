import pLimit from 'p-limit';
import type { ModelClient } from '../core/model.js';
import { perCall } from '../core/signals.js';
import type { SampleRecord } from '../core/record.js';
import type { StoredSample } from './store.js';

export interface AskEachOptions {
  /** A client per sample (scripted clients hold a session each); closed after the sample. */
  client: (sample: SampleRecord) => Promise<ModelClient> | ModelClient;
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after each sample, answered or failed. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Asks a model about each sample, a few at a time, as `classify` and `monitor` do: `ask` gets the sample's client and
 * a signal of its own, and stores what it learns. A provider failure is returned, never stored, so a rerun retries the
 * sample; once the signal is aborted nothing new starts and what is in flight is dropped.
 */
export async function askEach(
  samples: StoredSample[],
  options: AskEachOptions,
  ask: (client: ModelClient, sample: StoredSample, signal: AbortSignal | undefined) => Promise<void>,
): Promise<{ taskId: string; error: string }[]> {
  const failures: { taskId: string; error: string }[] = [];
  const limit = pLimit(options.concurrency ?? 4);
  let finished = 0;
  await Promise.all(
    samples.map((sample) =>
      limit(async () => {
        if (options.signal?.aborted) return;
        let client: ModelClient | undefined;
        try {
          client = await options.client(sample);
          await ask(client, sample, options.signal ? perCall(options.signal) : undefined);
        } catch (err) {
          if (options.signal?.aborted) return;
          failures.push({ taskId: sample.key.taskId, error: err instanceof Error ? err.message : String(err) });
        } finally {
          await client?.close?.();
          options.onProgress?.(++finished, samples.length);
        }
      }),
    ),
  );
  return failures;
}
