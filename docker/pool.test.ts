import { describe, expect, it } from 'vitest';
import { dockerBackend } from './docker-backend.js';
import { findEngine } from './engine.js';
import { PYTHON_IMAGE } from './image-names.js';
import { enginePool, type PoolMember } from './pool.js';
import { testRunId } from './testing.js';
import type { SandboxBackend } from './types.js';

/**
 * The pool over backends it knows nothing of: here two Docker backends on this machine's one engine, each counting
 * the sandboxes it makes, so where the pool sent each one is seen from the backends themselves.
 */
function member(label: string, made: string[], backend: SandboxBackend = dockerBackend()): PoolMember {
  return {
    label,
    capacity: 1,
    backend: {
      ...backend,
      create: (o) => {
        made.push(label);
        return backend.create(o);
      },
    },
    ping: async () => ((await findEngine()).found ? { ok: true } : { ok: false, error: 'no engine' }),
  };
}

describe('an engine pool over any backend', () => {
  it('spreads sandboxes over its backends by their free slots and sends the next to the one a destroy freed', async () => {
    const made: string[] = [];
    const pool = enginePool([member('one', made), member('two', made)]);
    const runId = testRunId('pool');
    try {
      expect(await pool.images.missing([PYTHON_IMAGE])).toEqual([]);
      const a = await pool.create({ image: PYTHON_IMAGE, runId, sampleId: 'a' });
      const b = await pool.create({ image: PYTHON_IMAGE, runId, sampleId: 'b' });
      expect(made).toEqual(['one', 'two']);
      expect((await a.exec(['echo', 'a'])).stdout).toBe('a\n');
      expect(await b.engineLost?.()).toBeUndefined();
      // Both slots taken: none to reserve until one is given back.
      expect(pool.placement?.reserve(PYTHON_IMAGE)).toBeUndefined();
      await a.destroy();
      const slot = pool.placement?.reserve(PYTHON_IMAGE);
      expect(slot).toBeDefined();
      const c = await pool.create({ image: PYTHON_IMAGE, runId, sampleId: 'c', ...(slot ? { slot } : {}) });
      expect(made).toEqual(['one', 'two', 'one']);
      await Promise.all([b.destroy(), c.destroy()]);
      expect((await pool.probe())[0]).toEqual({ mark: 'ok', text: 'engine pool: 2 engines, 2 sandboxes at once' });
    } finally {
      await pool.cleanup({ runId });
    }
  });

  it('offers saving sandboxes as images only when every backend it holds can', () => {
    const docker = dockerBackend();
    const { status, missing, pull, build, list, freeSpace } = docker.images;
    const cannot: SandboxBackend = { ...docker, images: { status, missing, pull, build, list, freeSpace } };
    expect(enginePool([member('one', []), member('two', [])]).images.derive).toBeDefined();
    expect(enginePool([member('one', []), member('two', [], cannot)]).images.derive).toBeUndefined();
  });
});
