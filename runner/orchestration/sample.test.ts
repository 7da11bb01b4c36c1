import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { sandboxBackend } from '../../docker/backends.js';
import { testRunId } from '../../docker/testing.js';
import type { Sandbox, SandboxOptions } from '../../docker/types.js';
import { runAgent } from '../../scaffolds/index.js';
import { createModelClient } from '../../models/index.js';
import type { ModelClient } from '../../core/model.js';
import { useModelServer } from '../../simulated/testing/model-server.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import { parseExperiment } from '../settings/config.js';
import { runContainers } from '../testing/cli.js';
import { executeSample, sampleMutation, type SampleServices } from './sample.js';

const server = useModelServer();

/** Resolves when `promise` does; rejects after `ms` with `what` (the test fails instead of hanging). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), ms).unref())]);
}

describe('a sample', () => {
  it("carries how its variant was made, from the task's mutation record, in its record (a finished sample and an error)", async () => {
    const mutation = { type: 'oneoff' as const, strategy: 'model/oneoff', seed: 0, line: 3, before: 'a', after: 'b', origin: 'model' as const };
    const task = { ...digitSumTask('oneoff'), mutation: { ...mutation, model: 'openai/gpt-5', tries: 2 } };
    const experiment = parseExperiment({ models: ['scripted/honest'], scaffolds: ['full'], maxAttempts: [1] }, 'test');
    const key = {
      model: 'scripted/honest',
      dataset: 'test',
      split: 'oneoff' as const,
      taskId: task.id,
      scaffold: 'full' as const,
      access: 'full' as const,
      prompt: 'D',
      maxAttempts: 1,
      epoch: 0,
    };
    const services = (create: (options: SandboxOptions) => Promise<Sandbox>): SampleServices => ({
      createSandbox: (_task, _scaffold, ids) => create({ image: PYTHON_IMAGE, ...ids }),
      createModel: async (spec, sample) => createModelClient(spec, { server, context: { task: sample.task, scaffold: sample.key.scaffold } }),
      instructions: (p) => ({ id: p, text: p, shipped: false }),
      runAgent,
    });
    const run = (runId: string, s: SampleServices) =>
      executeSample(
        { key, id: runId, task, prompt: 'D' },
        { runId, experiment, services: s, signal: new AbortController().signal, log: pino({ level: 'silent' }) },
      );
    const made = { origin: 'model', model: 'openai/gpt-5', strategy: 'model/oneoff', tries: 2 };

    const runId = testRunId('mutation-origin');
    const end = await run(
      runId,
      services((options) => sandboxBackend().create(options)),
    );
    if (end.kind !== 'record') throw new Error(`no record: ${end.kind}`);
    expect(end.record.outcome, end.record.error).not.toBe('error');
    expect(end.record.mutation).toEqual(made);
    expect(await runContainers(runId)).toEqual([]);

    const failed = await run(
      testRunId('mutation-origin-error'),
      services(() => Promise.reject(new Error('no engine here'))),
    );
    if (failed.kind !== 'record') throw new Error(`no record: ${failed.kind}`);
    expect(failed.record).toMatchObject({ outcome: 'error', mutation: made });

    // An original carries none; a record written before `origin` was kept is an edit of the patch.
    expect(sampleMutation(digitSumTask('original'))).toEqual({});
    expect(sampleMutation({ ...digitSumTask('conflicting'), mutation: { ...mutation, type: 'conflicting', origin: undefined } })).toEqual({
      mutation: { origin: 'patch', strategy: 'model/oneoff' },
    });
  });

  it('starts and sets up its sandbox while the first model request is in flight, and acts on no answer before', async () => {
    const runId = testRunId('overlap');
    const task = digitSumTask('original');
    const events: string[] = [];
    let commandRan!: () => void;
    const firstCommand = new Promise<void>((resolve) => (commandRan = resolve));
    const services: SampleServices = {
      createSandbox: async (_task, _scaffold, ids) => {
        events.push('sandbox requested');
        const real = await sandboxBackend().create({ image: PYTHON_IMAGE, ...ids });
        // Every call goes to the real sandbox; the first command is noted.
        return new Proxy(real, {
          get(target, name, receiver) {
            const value = Reflect.get(target, name, receiver) as unknown;
            if (name === 'exec') {
              return (...args: Parameters<Sandbox['exec']>) => {
                if (!events.includes('first command')) events.push('first command');
                commandRan();
                return target.exec(...args);
              };
            }
            return typeof value === 'function' ? value.bind(target) : value;
          },
        });
      },
      createModel: async (spec, sample) => {
        const inner = createModelClient(spec, { server, context: { task: sample.task, scaffold: sample.key.scaffold } });
        let first = true;
        const client: ModelClient = {
          name: inner.name,
          close: async () => {
            await inner.close?.();
          },
          async generate(messages, tools, options) {
            events.push('request sent');
            // The first answer is held until the sandbox has run a command: were the sandbox set up only after the
            // first request, this would never come.
            if (first) await within(firstCommand, 60_000, 'the sandbox ran no command while the first request was in flight');
            first = false;
            const answer = await inner.generate(messages, tools, options);
            events.push('answer');
            return answer;
          },
        };
        return client;
      },
      instructions: (p) => ({ id: p, text: p, shipped: false }),
      runAgent,
    };
    const experiment = parseExperiment({ models: ['scripted/honest'], scaffolds: ['full'], maxAttempts: [1] }, 'test');
    const key = {
      model: 'scripted/honest',
      dataset: 'test',
      split: 'original' as const,
      taskId: task.id,
      scaffold: 'full' as const,
      access: 'full' as const,
      prompt: 'D',
      maxAttempts: 1,
      epoch: 0,
    };
    const end = await executeSample(
      { key, id: 'overlap', task, prompt: 'D' },
      { runId, experiment, services, signal: new AbortController().signal, log: pino({ level: 'silent' }) },
    );
    expect(end.kind).toBe('record');
    if (end.kind !== 'record') return;
    expect(end.record.outcome, end.record.error ?? end.record.gradingLog).toBe('passed');
    // The sandbox was asked for first; the request went out before the sandbox was set up, not after; the answer came
    // after both.
    expect(events.slice(0, 4)).toEqual(['sandbox requested', 'request sent', 'first command', 'answer']);
    expect(await runContainers(runId)).toEqual([]);
  });
});
