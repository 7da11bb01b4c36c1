import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { schedule } from './scheduler.js';

describe('scheduler', () => {
  it('never runs more than `concurrency` units at once and runs each item', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    const summary = await schedule(
      Array.from({ length: 12 }, (_, i) => i),
      async (i) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await sleep(5 + (i % 3) * 5);
        seen.push(i);
        inFlight--;
        return 'done';
      },
      { concurrency: 3 },
    );
    expect(peak).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(summary).toEqual({ calls: 12, notStarted: 0, refused: false });
  });

  it('puts an item asking for another try at the back of the queue', async () => {
    const order: string[] = [];
    const tries = new Map<string, number>();
    await schedule(
      ['a', 'b', 'c'],
      async (x) => {
        order.push(x);
        const n = (tries.get(x) ?? 0) + 1;
        tries.set(x, n);
        return x === 'a' && n < 3 ? 'again' : 'done';
      },
      { concurrency: 1 },
    );
    expect(order).toEqual(['a', 'b', 'c', 'a', 'a']);
  });

  it('starts the item `pick` brings forward, keeping the order of those it passes', async () => {
    const order: string[] = [];
    const froms: number[] = [];
    await schedule(
      ['a1', 'a2', 'a3', 'b1', 'b2'],
      async (x) => {
        order.push(x);
        return 'done';
      },
      {
        concurrency: 1,
        // The next `b` first, while there is one; an index past the end counts as `from`.
        pick: (queue, from) => {
          froms.push(from);
          const b = queue.findIndex((x, i) => i >= from && x.startsWith('b'));
          return b >= 0 ? b : from === 4 ? 99 : from;
        },
      },
    );
    expect(order).toEqual(['b1', 'b2', 'a1', 'a2', 'a3']);
    expect(froms).toEqual([0, 1, 2, 3, 4]);
  });

  it('starts nothing new after the signal is aborted and lets running units end', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const finished: number[] = [];
    const summary = await schedule(
      Array.from({ length: 10 }, (_, i) => i),
      async (i) => {
        started.push(i);
        if (i === 2) controller.abort();
        await sleep(10);
        finished.push(i);
        return 'done';
      },
      { concurrency: 2, signal: controller.signal },
    );
    expect(started.length).toBeLessThanOrEqual(4);
    expect(finished.sort()).toEqual(started.sort());
    expect(summary.notStarted).toBe(10 - started.length);
  });

  it('rethrows the first error only after the units in flight are done', async () => {
    const finished: number[] = [];
    await expect(
      schedule(
        [0, 1, 2, 3],
        async (i) => {
          if (i === 0) throw new Error('boom');
          await sleep(20);
          finished.push(i);
          return 'done';
        },
        { concurrency: 2 },
      ),
    ).rejects.toThrow('boom');
    expect(finished).toEqual([1]);
  });

  it('rejects a bad concurrency', async () => {
    await expect(schedule([1], async () => 'done', { concurrency: 0 })).rejects.toThrow(/concurrency/);
  });
});
