import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxBackend } from '../../docker/backends.js';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { openStore } from '../../results/store.js';
import { removeRunContainers, removeStaleLeftovers } from './leftovers.js';
import { lockRun } from './lock.js';
import { cli, runContainers } from '../testing/cli.js';

const backend = sandboxBackend();

const historyImages = async (runId: string) => (await backend.images.listDerived!()).filter((i) => i.runId === runId).map((i) => i.name);

describe('leftover containers', () => {
  it("removes the containers and history images of this store's ended or dead runs, never those of a live run", async () => {
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
    for (const runId of [ended, dead, live, foreign]) {
      const sandbox = await backend.create({ image: PYTHON_IMAGE, runId, sampleId: 's1' });
      await backend.images.derive!(sandbox, `impossiblebench/history:${runId}`, {});
    }
    try {
      expect(await removeStaleLeftovers(backend, store, 'none')).toBe(2);
      expect(await runContainers(ended)).toEqual([]);
      expect(await runContainers(dead)).toEqual([]);
      expect(await runContainers(live)).toHaveLength(1);
      expect(await runContainers(foreign)).toHaveLength(1);
      expect(await historyImages(ended)).toEqual([]);
      expect(await historyImages(dead)).toEqual([]);
      expect(await historyImages(live)).toEqual([`impossiblebench/history:${live}`]);
      // `cleanup --run` lists a run's history images beside its containers, then removes both.
      const dry = await cli(['cleanup', '--run', foreign, '--dry-run']);
      expect(dry.stdout).toContain(`impossiblebench/history:${foreign}  run ${foreign}\n1 history image of run ${foreign} would be removed`);
      const removed = await cli(['cleanup', '--run', foreign]);
      expect(removed.stdout).toBe(`removed 1 sandbox container of run ${foreign}\nremoved 1 history image of run ${foreign}`);
      expect(await historyImages(foreign)).toEqual([]);
    } finally {
      unlock();
      await removeRunContainers(backend, live);
      await removeRunContainers(backend, foreign);
      await backend.images.removeDerived!([`impossiblebench/history:${live}`, `impossiblebench/history:${foreign}`]);
      store.close();
    }
    expect(await runContainers(live)).toEqual([]);
  });
});
