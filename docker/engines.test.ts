import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerHostSchema } from './hosts.js';
import { PYTHON_IMAGE } from './image-names.js';
import { EngineLostError, enginePool } from './pool.js';
import { stopsRun } from './errors.js';
import { firstEngineUrl, startSecondEngine, type SecondEngine } from './testing/second-engine.js';

let second: SecondEngine;
let first: string;
/** Whether the host has the first engine's default bridge, which a second engine must leave alone. */
const hasDocker0 = () => spawnSync('ip', ['link', 'show', 'docker0'], { stdio: 'ignore' }).status === 0;
let hadDocker0: boolean;

beforeAll(async () => {
  first = await firstEngineUrl();
  hadDocker0 = hasDocker0();
  second = await startSecondEngine();
}, 120_000);

afterAll(async () => {
  await second?.stop();
}, 120_000);

const hosts = () => [DockerHostSchema.parse({ url: first, capacity: 2 }), DockerHostSchema.parse({ url: second.url, capacity: 2 })];

describe('several Docker engines as one pool', () => {
  it('names the engine that lacks an image, then places sandboxes on both, least loaded first, and lists and removes them on both', async () => {
    expect(hasDocker0()).toBe(hadDocker0);
    const pool = enginePool(hosts());
    await pool.connect();
    expect(await pool.images.missingWhere!([PYTHON_IMAGE])).toEqual([{ where: second.url, missing: [PYTHON_IMAGE] }]);
    second.load(PYTHON_IMAGE);
    expect(await pool.images.missingWhere!([PYTHON_IMAGE])).toEqual([]);

    const checks = await pool.probe();
    expect(checks.filter((c) => c.text.includes(second.url) && c.text.includes('container engine')).map((c) => c.mark)).toEqual(['ok']);
    expect(checks.filter((c) => c.text.includes(`[${first},`) && c.text.includes('container engine')).map((c) => c.mark)).toEqual(['ok']);

    const runId = `pool-${Date.now()}`;
    const boxes = await Promise.all([0, 1, 2, 3].map((i) => pool.create({ image: PYTHON_IMAGE, runId, sampleId: `s${i}` })));
    const listed = await pool.list({ runId });
    expect(listed.map((s) => s.engine).sort()).toEqual([first, first, second.url, second.url].sort());
    const out = await boxes[3]!.exec(['python3', '-c', 'print(6 * 7)']);
    expect(out.stdout.trim()).toBe('42');

    // Both engines are full: a fifth sandbox waits for a slot and gets the one freed.
    const fifth = pool.create({ image: PYTHON_IMAGE, runId, sampleId: 's4' });
    await boxes[0]!.destroy();
    const box = await fifth;
    expect((await pool.list({ runId })).length).toBe(4);

    const removed = await pool.cleanup({ runId });
    expect(removed.removed.length).toBe(4);
    expect(await pool.list({ runId })).toEqual([]);
    for (const b of [...boxes.slice(1), box]) await b.destroy().catch(() => undefined);
  }, 120_000);
});

describe('a pool whose engines are all gone', () => {
  it('fails the first sandbox as an infrastructure error, then stops the run; a run does not start on an engine that does not answer', async () => {
    const pool = enginePool([DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
    second.kill();
    const firstTry = await pool.create({ image: PYTHON_IMAGE, runId: 'gone', sampleId: 'a' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(firstTry).toBeInstanceOf(EngineLostError);
    const next = await pool.create({ image: PYTHON_IMAGE, runId: 'gone', sampleId: 'b' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(stopsRun(next)).toBe(true);
    expect((next as Error).message).toContain(`every container engine of the pool is gone (${second.url}:`);
    await expect(pool.connect()).rejects.toThrow(`no container engine answers at ${second.url}`);
    // Cleanup still cleans the engines that answer, and names the one that does not.
    const both = enginePool([DockerHostSchema.parse({ url: first, capacity: 1 }), DockerHostSchema.parse({ url: second.url, capacity: 1 })]);
    const cleaned = await both.cleanup({ runId: 'no-such-run-of-a-pool' });
    expect(cleaned.removed).toEqual([]);
    expect(cleaned.unreachable?.map((u) => u.engine)).toEqual([second.url]);
  }, 60_000);
});
