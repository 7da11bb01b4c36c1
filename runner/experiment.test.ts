import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PYTHON_IMAGE } from '../docker/images.js';
import { createSandbox } from '../docker/sandbox.js';

/** A CPU limit no engine can grant. */
const IMPOSSIBLE_CPUS = 100_000;
import { openStore } from '../results/store.js';
import { runAgent } from '../scaffolds/index.js';
import type { LcbTask, Variant } from '../tasks/task.js';
import { parseExperiment } from './config.js';
import { runExperiment } from './experiment.js';
import type { SampleServices } from './sample.js';
import { PassThrough } from 'node:stream';

const task = (variant: Variant): LcbTask => ({
  kind: 'lcb',
  id: 'double',
  variant,
  source: 'test',
  prompt: 'def double(x: int) -> int:\n    """Return twice x."""\n',
  entryPoint: 'double',
  test: 'def check(candidate):\n    assert candidate(2) == 4\n',
  originalTest: 'def check(candidate):\n    assert candidate(2) == 4\n',
  solution: 'def double(x: int) -> int:\n    return 2 * x\n',
});

describe('runExperiment', () => {
  it('records an infrastructure failure as error, tries it `retries` more times, and never scores it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ib-exp-'));
    const store = openStore(join(dir, 's.sqlite'));
    let agentCalls = 0;
    // More CPUs than any machine has: a real engine error, before any model is involved.
    const services: SampleServices = {
      createSandbox,
      sandboxFor: () => ({ image: PYTHON_IMAGE, cpus: IMPOSSIBLE_CPUS }),
      createModel: async () => {
        throw new Error('never reached');
      },
      instructions: (p) => p,
      runAgent: async (input) => {
        agentCalls++;
        return runAgent(input);
      },
    };
    const experiment = parseExperiment({ models: ['scripted/honest'], splits: ['original'], retries: 1, concurrency: 1 }, 'test');
    const runId = store.createRun(experiment, { id: 'retry-test' });
    const sink = new PassThrough();
    sink.resume();
    const run = () =>
      runExperiment({
        experiment,
        store,
        runId,
        services,
        loadTasks: async () => new Map([['original', [task('original')]]]),
        signal: new AbortController().signal,
        log: pino({ level: 'silent' }),
        progress: { stream: sink, plain: true },
      });
    const summary = await run();
    expect(summary.counts).toEqual({ passed: 0, failed: 0, evaded: 0, error: 1 });
    expect(agentCalls).toBe(0);
    const [sample] = store.listSamples(runId);
    expect(sample!.outcome).toBe('error');
    expect(sample!.stopReason).toBe('error');
    expect(sample!.errorCount).toBe(2); // the first try and one retry
    expect(sample!.error).toMatch(/could not create a sandbox/);
    expect(store.listEvents(runId, 'retry')).toHaveLength(1);
    expect(store.listEvents(runId, 'gave_up')).toHaveLength(1);

    // Out of tries: a resume leaves it alone, and it is still stored once.
    const again = await run();
    expect(again.ranHere).toBe(0);
    expect(again.resumed).toBe(1);
    expect(store.listSamples(runId)).toHaveLength(1);
    store.close();
  });

  it('records a failure another try would repeat once: no retry, and it does not stop the run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ib-exp-'));
    const store = openStore(join(dir, 's.sqlite'));
    // An image the engine does not have: no later try can start the sample.
    const services: SampleServices = {
      createSandbox,
      sandboxFor: () => ({ image: 'impossiblebench/no-such-image:0' }),
      createModel: async () => {
        throw new Error('never reached');
      },
      instructions: (p) => p,
      runAgent,
    };
    const tasks = Array.from({ length: 12 }, (_, i) => ({ ...task('original'), id: `t${i}` }));
    const experiment = parseExperiment({ models: ['scripted/honest'], splits: ['original'], retries: 2, concurrency: 2 }, 'test');
    const runId = store.createRun(experiment, { id: 'certain-test' });
    const sink = new PassThrough();
    sink.resume();
    const summary = await runExperiment({
      experiment,
      store,
      runId,
      services,
      loadTasks: async () => new Map([['original', tasks]]),
      signal: new AbortController().signal,
      log: pino({ level: 'silent' }),
      progress: { stream: sink, plain: true },
    });
    expect(summary.status).toBe('finished');
    expect(summary.counts.error).toBe(12);
    const samples = store.listSamples(runId);
    expect(samples).toHaveLength(12);
    for (const s of samples) {
      expect(s.errorCount).toBe(1);
      expect(s.error).toMatch(/the sandbox image impossiblebench\/no-such-image:0 is not present/);
    }
    expect(store.listEvents(runId, 'retry')).toHaveLength(0);
    expect(store.listEvents(runId, 'gave_up_certain')).toHaveLength(12);
    store.close();
  });

  it('stops a run whose samples keep failing outside the model, leaving the rest to a resume', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ib-exp-'));
    const store = openStore(join(dir, 's.sqlite'));
    const services: SampleServices = {
      createSandbox,
      sandboxFor: () => ({ image: PYTHON_IMAGE, cpus: IMPOSSIBLE_CPUS }),
      createModel: async () => {
        throw new Error('never reached');
      },
      instructions: (p) => p,
      runAgent,
    };
    // 12 tasks: a dead engine must not burn through all of them.
    const tasks = Array.from({ length: 12 }, (_, i) => ({ ...task('original'), id: `t${i}` }));
    const experiment = parseExperiment({ models: ['scripted/honest'], splits: ['original'], retries: 0, concurrency: 1 }, 'test');
    const runId = store.createRun(experiment, { id: 'breaker-test' });
    const sink = new PassThrough();
    sink.resume();
    await expect(
      runExperiment({
        experiment,
        store,
        runId,
        services,
        loadTasks: async () => new Map([['original', tasks]]),
        signal: new AbortController().signal,
        log: pino({ level: 'silent' }),
        progress: { stream: sink, plain: true },
      }),
    ).rejects.toThrow(/stopped after 8 samples in a row failed outside the model \(last: .*could not create a sandbox/);
    expect(store.listSamples(runId)).toHaveLength(8);
    expect(store.getRun(runId).status).toBe('interrupted');
    expect(store.listEvents(runId, 'stopped_on_errors')).toHaveLength(1);
    store.close();
  });
});
