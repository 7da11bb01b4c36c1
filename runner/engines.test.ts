import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerHostSchema } from '../docker/hosts.js';
import { PYTHON_IMAGE } from '../docker/image-names.js';
import { firstEngineUrl, startSecondEngine, type SecondEngine } from '../docker/testing/second-engine.js';
import { openStore } from '../results/store.js';
import { launchRun } from './launch.js';
import { realWiring } from './real-wiring.js';

/** A run over a pool of two engines, one of which dies mid-run (the pool itself: docker/engines.test.ts). */

let second: SecondEngine;
let first: string;

beforeAll(async () => {
  first = await firstEngineUrl();
  second = await startSecondEngine();
  second.load(PYTHON_IMAGE);
}, 120_000);

afterAll(async () => {
  await second?.stop();
}, 120_000);

const hosts = () => [DockerHostSchema.parse({ url: first, capacity: 2 }), DockerHostSchema.parse({ url: second.url, capacity: 2 })];

describe('a run over several Docker engines', () => {
  it('a run goes on when one engine dies: its samples end as errors, are tried again on the other, and each is recorded once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ib-engines-'));
    const storePath = join(dir, 'store.sqlite');
    const lines: string[] = [];
    const sink = new PassThrough();
    sink.resume();
    const controller = new AbortController();

    // Kill the second engine once a few samples have started on it and one is still running there.
    const seen = new Set<string>();
    let killedWhileRunning = false;
    let watching = true;
    const watcher = (async () => {
      while (watching && second.alive()) {
        const running = await second.runningSandboxes();
        for (const id of running) seen.add(id);
        if (seen.size >= 3 && running.length > 0) {
          killedWhileRunning = true;
          second.kill();
          return;
        }
        await delay(100);
      }
    })();

    const result = await launchRun({
      flags: {
        models: ['scripted/honest', 'scripted/modify-tests', 'scripted/special-case', 'scripted/give-up'],
        datasets: ['builtin:lcb'],
        limit: 1,
        dockerHosts: hosts(),
        retries: 2,
      },
      flagNames: {},
      store: storePath,
      wire: (exp) => realWiring(exp, { validateVariants: false, say: (l) => lines.push(l), signal: controller.signal }),
      signal: controller.signal,
      progress: { plain: true, stream: sink },
      say: (l) => lines.push(l),
    }).finally(() => {
      watching = false;
    });
    await watcher;

    expect(killedWhileRunning).toBe(true);
    expect(result.experiment.concurrency).toBe(4);
    expect(result.summary.status).toBe('finished');
    expect(lines.some((l) => l.includes(`engine ${second.url} is gone`) && l.includes('going on with 1 engine'))).toBe(true);

    const store = openStore(storePath, { mustExist: true });
    try {
      const runId = result.summary.runId;
      const samples = store.listSamples(runId, { withTranscript: false });
      // 4 policies × 3 splits × 1 task, each recorded once and none left as an error.
      expect(samples.length).toBe(12);
      expect(new Set(samples.map((s) => s.keyString)).size).toBe(12);
      expect(samples.filter((s) => s.outcome === 'error').map((s) => s.error)).toEqual([]);
      const engineTrouble = /is gone|ECONNREFUSED|ECONNRESET|socket hang up|connect ENOENT|no such container/i;
      for (const s of samples) expect(`${s.gradingLog}\n${s.error ?? ''}`).not.toMatch(engineTrouble);
      // The kill hit samples in flight: they ended as infrastructure errors and were tried again.
      const retries = store.listEvents(runId, 'retry');
      expect(retries.length).toBeGreaterThan(0);
      expect(retries.every((e) => JSON.stringify(e.data).includes(second.url))).toBe(true);
      expect(store.listEvents(runId, 'engine_lost').map((e) => e.data)).toEqual([{ engine: second.url }]);
    } finally {
      store.close();
    }
  }, 300_000);
});
