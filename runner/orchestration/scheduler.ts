/** What a unit of work asks of the scheduler when it ends: done, or put it back at the end of the queue. */
export type WorkResult = 'done' | 'again';

export interface ScheduleOptions<T = unknown> {
  /** Units of work in flight at once. */
  concurrency: number;
  /** Once aborted, no new unit starts; those in flight are left to finish (they get the same signal). */
  signal?: AbortSignal;
  /** Which queued item starts next: the index of one at or after `from` (default `from`, the queue's order). */
  pick?: (queue: readonly T[], from: number) => number;
  /**
   * Whether the item about to start may start. A no stops new work for good, as an abort does: the refused item and
   * those after it are left not started, the units in flight finish.
   */
  admit?: (item: T) => boolean;
}

export interface ScheduleSummary {
  /** Calls of the work function that returned (retries counted once each). */
  calls: number;
  /** Items never started, or put back but not run again, because the signal was aborted or `admit` said no. */
  notStarted: number;
  /** `admit` said no to an item. */
  refused: boolean;
}

/**
 * Runs `work` over the items with at most `concurrency` in flight, in order unless `pick` brings one
 * forward. An item whose work returns `again` goes to the back of the queue, so a transient failure
 * is retried after the others have had their turn. The first thrown error stops new work and is rethrown once the units in
 * flight have ended: no unit is ever abandoned mid-way.
 */
export async function schedule<T>(items: Iterable<T>, work: (item: T) => Promise<WorkResult>, options: ScheduleOptions<T>): Promise<ScheduleSummary> {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
  }
  const queue = [...items];
  let next = 0;
  let calls = 0;
  let failure: { error: unknown } | undefined;
  let refused = false;
  const stopped = () => refused || failure !== undefined || options.signal?.aborted === true;

  const worker = async (): Promise<void> => {
    while (!stopped() && next < queue.length) {
      const at = options.pick?.(queue, next) ?? next;
      // Brought forward; the items it passes keep their order.
      if (at > next && at < queue.length) queue.splice(next, 0, ...queue.splice(at, 1));
      if (options.admit && !options.admit(queue[next]!)) {
        refused = true;
        break;
      }
      const item = queue[next++]!;
      try {
        const result = await work(item);
        calls++;
        if (result === 'again') queue.push(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Array.from({ length: Math.min(options.concurrency, Math.max(queue.length, 1)) }, worker);
  await Promise.all(workers);
  if (failure) throw failure.error;
  return { calls, notStarted: queue.length - next, refused };
}
