import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { sandboxBackend } from '../../docker/backends.js';
import { DockerHostSchema } from '../../docker/hosts.js';
import type { SandboxOptions } from '../../docker/types.js';
import { openStore, type ResultStore } from '../../results/store.js';
import { runAgent } from '../../scaffolds/index.js';
import type { LcbTask, Task } from '../../tasks/task.js';
import type { Variant } from '../../core/record.js';
import { parseExperiment, type Experiment } from '../settings/config.js';
import { runExperiment } from './experiment.js';
import type { SampleServices } from './sample.js';

/** A CPU limit no engine can grant. */
/** A CPU share below the kernel's smallest quota: the engine creates the container and the runtime fails to start it. */
const IMPOSSIBLE_CPUS = 0.001;

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

/** Services whose sandbox never starts (a real engine error, from these options), counting the agent runs. */
function failingServices(sandbox: Omit<SandboxOptions, 'runId' | 'sampleId'>, onAgent: () => void = () => {}): SampleServices {
  return {
    createSandbox: (_task, _scaffold, ids) => sandboxBackend().create({ ...sandbox, ...ids }),
    createModel: async () => {
      throw new Error('never reached');
    },
    instructions: (p) => ({ id: p, text: p, shipped: false }),
    runAgent: async (input) => {
      onAgent();
      return runAgent(input);
    },
  };
}

async function newStore(): Promise<ResultStore> {
  return openStore(join(await mkdtemp(join(tmpdir(), 'ib-exp-')), 's.sqlite'));
}

/** Runs (or resumes) an experiment over fixed tasks, with progress going nowhere. */
function runOn(store: ResultStore, runId: string, experiment: Experiment, tasks: Task[], services: SampleServices) {
  const sink = new PassThrough();
  sink.resume();
  return runExperiment({
    experiment,
    store,
    runId,
    services,
    tasks: new Map([[experiment.datasets[0]!, new Map([['original', tasks]])]]),
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    progress: { stream: sink, plain: true },
  });
}

const twelve = () => Array.from({ length: 12 }, (_, i) => ({ ...task('original'), id: `t${i}` }));

describe('runExperiment', () => {
  it('records an infrastructure failure as error, tries it `retries` more times, and never scores it', async () => {
    const store = await newStore();
    let agentCalls = 0;
    // A real engine error, before any model is involved.
    const services = failingServices({ image: PYTHON_IMAGE, cpus: IMPOSSIBLE_CPUS }, () => agentCalls++);
    const experiment = parseExperiment({ models: ['scripted/honest'], splits: ['original'], retries: 1, concurrency: 1 }, 'test');
    const runId = store.createRun(experiment, { id: 'retry-test' });
    const summary = await runOn(store, runId, experiment, [task('original')], services);
    expect(summary.counts).toEqual({ passed: 0, failed: 0, evaded: 0, error: 1 });
    expect(agentCalls).toBe(0);
    const [sample] = store.listSamples(runId);
    expect(sample!.outcome).toBe('error');
    expect(sample!.stopReason).toBe('error');
    expect(sample!.errorCount).toBe(2); // the first try and one retry
    expect(sample!.error).toMatch(/could not start a sandbox/);
    expect(store.listEvents(runId, 'retry')).toHaveLength(1);
    expect(store.listEvents(runId, 'gave_up')).toHaveLength(1);

    // Out of tries: a resume leaves it alone, and it is still stored once.
    const again = await runOn(store, runId, experiment, [task('original')], services);
    expect(again.ranHere).toBe(0);
    expect(again.resumed).toBe(1);
    expect(store.listSamples(runId)).toHaveLength(1);
    store.close();
  });

  it('records a failure another try would repeat once: no retry, and it does not stop the run', async () => {
    const store = await newStore();
    // An image the engine does not have: no later try can start the sample.
    const services = failingServices({ image: 'impossiblebench/no-such-image:0' });
    const experiment = parseExperiment({ models: ['scripted/honest'], splits: ['original'], retries: 2, concurrency: 2 }, 'test');
    const runId = store.createRun(experiment, { id: 'certain-test' });
    const summary = await runOn(store, runId, experiment, twelve(), services);
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
    const store = await newStore();
    const services = failingServices({ image: PYTHON_IMAGE, cpus: IMPOSSIBLE_CPUS });
    // 12 tasks: a dead engine must not burn through all of them.
    const experiment = parseExperiment({ models: ['scripted/honest'], splits: ['original'], retries: 0, concurrency: 1 }, 'test');
    const runId = store.createRun(experiment, { id: 'breaker-test' });
    await expect(runOn(store, runId, experiment, twelve(), services)).rejects.toThrow(
      /stopped after 8 samples in a row failed outside the model \(last: .*could not start a sandbox/,
    );
    expect(store.listSamples(runId)).toHaveLength(8);
    expect(store.getRun(runId).status).toBe('interrupted');
    expect(store.listEvents(runId, 'stopped_on_errors')).toHaveLength(1);
    store.close();
  });

  it('stops at once, resumable, when every engine of a pool is gone: the sample that found it out is an error to try again', async () => {
    const store = await newStore();
    // An engine address where nothing answers: the pool takes it out on the first sandbox, then has none left.
    const gone = `unix://${join(await mkdtemp(join(tmpdir(), 'ib-gone-')), 'docker.sock')}`;
    const pool = sandboxBackend('docker', [DockerHostSchema.parse({ url: gone, capacity: 1 })]);
    const services = {
      ...failingServices({ image: PYTHON_IMAGE }),
      createSandbox: (...[, , ids]: Parameters<SampleServices['createSandbox']>) => pool.create({ image: PYTHON_IMAGE, ...ids }),
    };
    const experiment = parseExperiment({ models: ['scripted/honest'], splits: ['original'], retries: 2, concurrency: 1 }, 'test');
    const runId = store.createRun(experiment, { id: 'pool-gone-test' });
    await expect(runOn(store, runId, experiment, twelve(), services)).rejects.toThrow(
      `run ${runId} stopped: SandboxError: every container engine of the pool is gone (${gone}:`,
    );
    const samples = store.listSamples(runId);
    expect(samples).toHaveLength(1);
    expect(samples[0]!.outcome).toBe('error');
    expect(samples[0]!.error).toContain(`the container engine ${gone} is gone`);
    expect(samples[0]!.errorCount).toBeLessThan(experiment.retries + 1);
    expect(store.getRun(runId).status).toBe('interrupted');
    expect(store.listEvents(runId, 'stopped_no_sandboxes')).toHaveLength(1);
    expect(store.listEvents(runId, 'engine_lost').map((e) => e.data)).toEqual([{ engine: gone }]);
    store.close();
  });
});
