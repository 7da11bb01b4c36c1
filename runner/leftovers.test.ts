import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxBackend } from '../docker/backends.js';
import { PYTHON_IMAGE } from '../docker/image-names.js';
import { openStore } from '../results/store.js';
import { removeRunContainers, removeStaleContainers } from './leftovers.js';
import { lockRun } from './lock.js';
import { runContainers } from './testing/cli.js';

const backend = sandboxBackend();

describe('leftover containers', () => {
  it("removes the containers of this store's ended or dead runs, never those of a live run", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ib-leftovers-'));
    const store = openStore(join(dir, 's.sqlite'));
    const tag = `${process.pid}-${Date.now()}`;
    const ended = store.createRun({}, { id: `ended-${tag}` });
    store.finishRun(ended, 'interrupted');
    const dead = store.createRun({}, { id: `dead-${tag}` }); // still "running", but no process holds its lock
    const live = store.createRun({}, { id: `live-${tag}` });
    const unlock = lockRun(store.path, live);
    const foreign = `foreign-${tag}`; // not a run of this store
    // Leftovers as a killed process leaves them: created, never destroyed.
    for (const runId of [ended, dead, live, foreign]) await backend.create({ image: PYTHON_IMAGE, runId, sampleId: 's1' });
    try {
      expect(await removeStaleContainers(backend, store, 'none')).toBe(2);
      expect(await runContainers(ended)).toEqual([]);
      expect(await runContainers(dead)).toEqual([]);
      expect(await runContainers(live)).toHaveLength(1);
      expect(await runContainers(foreign)).toHaveLength(1);
    } finally {
      unlock();
      await removeRunContainers(backend, live);
      await removeRunContainers(backend, foreign);
      store.close();
    }
    expect(await runContainers(live)).toEqual([]);
  });
});
