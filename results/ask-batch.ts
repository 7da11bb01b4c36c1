import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BatchAnswer, BatchRequest, BatchState, Generation, ModelBatches, ModelClient } from '../core/model.js';
import { UserError } from '../core/errors.js';
import type { ResultStore, StoredBatch, StoredSample } from './store.js';

/** Rounds of sending again what came back errored, expired or canceled, before it is reported as a failure. */
export const BATCH_ROUNDS = 3;

export interface AskBatchOptions {
  /** The client whose provider's batch API carries the requests. */
  client: ModelClient;
  /** What the requests ask (the command, the model, the prompt): the same on every rerun of the same command. */
  job: string;
  /** Seconds between looks at a batch still in progress. */
  pollSeconds: number;
  signal?: AbortSignal;
  /** Each look at a batch still being processed. */
  onCheck?: (batchId: string, state: BatchState) => void;
  /** A line worth telling the user: a batch found again, requests sent again. */
  say?: (line: string) => void;
}

/** The custom id of a sample's request: short, and made only of the characters both providers accept. */
function requestId(keyString: string): string {
  return `s-${createHash('sha256').update(keyString).digest('hex').slice(0, 32)}`;
}

/** Counts of each way requests failed, in words: `3 expired, 1 errored`. */
function failedCounts(failed: { failed: string }[]): string {
  const counts = new Map<string, number>();
  for (const f of failed) counts.set(f.failed, (counts.get(f.failed) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}

/** Polls a batch until it ends or proves unknown to the provider (404: a local server since restarted); 'stopped' by the signal. */
async function waitForBatch(batches: ModelBatches, id: string, options: AskBatchOptions): Promise<'ended' | 'gone' | 'stopped'> {
  for (;;) {
    if (options.signal?.aborted) return 'stopped';
    const state = await batches.check(id).catch((err: unknown) => {
      if ((err as { status?: number }).status === 404) return 'gone' as const;
      throw err;
    });
    if (state === 'gone') return state;
    if (state.ended) return 'ended';
    options.onCheck?.(id, state);
    await sleep(options.pollSeconds * 1000, undefined, options.signal ? { signal: options.signal } : {}).catch(() => {});
  }
}

/**
 * Asks a model about each sample through its provider's batch API, as `classify --batch` and `monitor --batch` do.
 * Every batch is kept in the store as soon as it is submitted, so a command killed while it waits finds its batches
 * again on the next call and submits only what none of them holds. Each answer goes to `answer`, once per sample still
 * in `samples`; requests that come back errored, expired or canceled are sent again in a new batch (up to BATCH_ROUNDS
 * times), and what still has no answer is returned as failures, storing nothing, so a rerun retries it.
 */
export async function askBatch(
  store: ResultStore,
  runId: string,
  samples: StoredSample[],
  options: AskBatchOptions,
  request: (sample: StoredSample) => Omit<BatchRequest, 'id'>,
  answer: (sample: StoredSample, generation: Generation) => void,
): Promise<{ taskId: string; error: string }[]> {
  const batches = options.client.batches;
  if (!batches)
    throw new UserError(`${options.client.name} has no batch API`, 'drop --batch, or use an openai/, openai-responses/ or anthropic/ model');
  const say = options.say ?? (() => {});
  const todo = new Map(samples.map((s) => [s.keyString, s]));
  const found = store.openBatches(runId, options.job);
  if (found.length)
    say(`found ${found.length} batch${found.length === 1 ? '' : 'es'} submitted before (${found.map((b) => b.id).join(', ')}); waiting for them`);
  const held = new Set(found.flatMap((b) => Object.values(b.requests)));

  const submit = async (wanted: StoredSample[]): Promise<StoredBatch> => {
    const requests = wanted.map((s) => ({ id: requestId(s.keyString), ...request(s) }));
    const id = await batches.submit(requests);
    const batch = {
      id,
      runId,
      job: options.job,
      requests: Object.fromEntries(wanted.map((s, i) => [requests[i]!.id, s.keyString])),
      submittedAt: new Date().toISOString(),
    };
    store.recordBatch(batch);
    say(`submitted batch ${id} of ${wanted.length} request${wanted.length === 1 ? '' : 's'}`);
    return { ...batch, closedAt: null };
  };

  const fresh = [...todo.values()].filter((s) => !held.has(s.keyString));
  let pending = [...found, ...(fresh.length ? [await submit(fresh)] : [])];
  const failures: { taskId: string; error: string }[] = [];
  for (let round = 1; pending.length; round++) {
    const again: { sample: StoredSample; failure: Extract<BatchAnswer, { failed: unknown }> }[] = [];
    for (const batch of pending) {
      const ended = await waitForBatch(batches, batch.id, options);
      if (ended === 'stopped') return failures;
      const ids = Object.keys(batch.requests);
      if (ended === 'gone') say(`the provider no longer knows batch ${batch.id}; its requests count as expired`);
      const answers =
        ended === 'gone'
          ? ids.map((id) => ({ id, failed: 'expired' as const, error: `batch ${batch.id} is unknown to the provider` }))
          : await batches.results(batch.id, ids);
      for (const a of answers) {
        const sample = todo.get(batch.requests[a.id] ?? '');
        // Answered already: stored before the command was stopped, or by another batch.
        if (!sample) continue;
        if ('generation' in a) {
          answer(sample, a.generation);
          todo.delete(sample.keyString);
        } else again.push({ sample, failure: a });
      }
      store.closeBatch(batch.id);
    }
    pending = [];
    if (again.length === 0) break;
    const counts = failedCounts(again.map((a) => a.failure));
    if (round >= BATCH_ROUNDS) {
      say(`${counts} still without an answer after ${round} batches; a rerun sends them again`);
      failures.push(...again.map(({ sample, failure }) => ({ taskId: sample.key.taskId, error: `${failure.failed} in a batch: ${failure.error}` })));
      break;
    }
    say(`${counts} of the batch's requests came back without an answer; sending those ${again.length} again in a new batch`);
    pending = [await submit(again.map((a) => a.sample))];
  }
  return failures;
}
