import { describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { sandboxBackend } from './backends.js';
import { ENGINE_TIMEOUT_ENV, engineTimeoutMs, withEngineDeadline } from './deadline.js';
import { SandboxError } from './errors.js';

describe('engine call deadlines', () => {
  it('default to five minutes, take seconds from the environment, and refuse what is not a positive number', () => {
    expect(engineTimeoutMs({})).toBe(300_000);
    expect(engineTimeoutMs({ [ENGINE_TIMEOUT_ENV]: ' 2.5 ' })).toBe(2_500);
    for (const bad of ['0', '-3', 'soon', 'Infinity']) {
      expect(() => engineTimeoutMs({ [ENGINE_TIMEOUT_ENV]: bad })).toThrow(UserError);
    }
  });

  it('stop a backend from being made when the value is bad, before any sample runs', () => {
    const before = process.env[ENGINE_TIMEOUT_ENV];
    process.env[ENGINE_TIMEOUT_ENV] = 'soon';
    try {
      expect(() => sandboxBackend()).toThrow(
        new UserError(`${ENGINE_TIMEOUT_ENV}=soon is not a number of seconds above 0`, 'unset it (default 300) or set it to e.g. 600'),
      );
    } finally {
      if (before === undefined) delete process.env[ENGINE_TIMEOUT_ENV];
      else process.env[ENGINE_TIMEOUT_ENV] = before;
    }
  });

  it('end a call that never answers with an infrastructure error, and abort its request', async () => {
    const before = process.env[ENGINE_TIMEOUT_ENV];
    process.env[ENGINE_TIMEOUT_ENV] = '0.05';
    try {
      let aborted = false;
      const err = await withEngineDeadline('start a container', (signal) => {
        signal.addEventListener('abort', () => {
          aborted = true;
        });
        return new Promise<never>(() => undefined);
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxError);
      expect((err as Error).message).toBe('the container engine did not answer in 0.05 s (start a container); it may be overloaded or stuck');
      expect(aborted).toBe(true);
      // An answer in time is passed through, and its own failure too.
      expect(await withEngineDeadline('list containers', async () => 7)).toBe(7);
      await expect(withEngineDeadline('list containers', () => Promise.reject(new Error('409 conflict')))).rejects.toThrow('409 conflict');
    } finally {
      if (before === undefined) delete process.env[ENGINE_TIMEOUT_ENV];
      else process.env[ENGINE_TIMEOUT_ENV] = before;
    }
  });
});
