import { describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { DEFAULT_SANDBOX, SANDBOX_BACKENDS, registerSandboxBackend, sandboxBackend } from './backends.js';
import { dockerBackend } from './docker-backend.js';
import { PYTHON_IMAGE } from './image-names.js';
import { testRunId } from './testing.js';

describe('sandbox backends by name', () => {
  it('gives the one Docker backend, shared within the process', () => {
    expect(SANDBOX_BACKENDS).toEqual(['docker']);
    expect(sandboxBackend().name).toBe(DEFAULT_SANDBOX);
    expect(sandboxBackend('docker')).toBe(sandboxBackend());
  });

  it('refuses an unknown name, listing the known ones', () => {
    let err: unknown;
    try {
      sandboxBackend('toString');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toBe('unknown sandbox backend "toString"');
    expect((err as UserError).fix).toBe('use one of: docker');
  });

  it("lists a run's sandboxes with their disk use and removes only those older than a time", async () => {
    const backend = sandboxBackend();
    const runId = testRunId('backend');
    const old = await backend.create({ image: PYTHON_IMAGE, runId, sampleId: 'old' });
    await old.exec(['sh', '-c', 'head -c 100000 /dev/zero > /tmp/fill']);
    // The engine stamps creation in whole seconds.
    await new Promise((r) => setTimeout(r, 1_100));
    const cut = new Date();
    await new Promise((r) => setTimeout(r, 1_100));
    const young = await backend.create({ image: PYTHON_IMAGE, runId, sampleId: 'young' });
    try {
      const listed = await backend.list({ runId, diskUsage: true });
      expect(listed.map((s) => s.sampleId).sort()).toEqual(['old', 'young']);
      expect(listed.find((s) => s.sampleId === 'old')!.diskBytes).toBeGreaterThanOrEqual(100_000);
      expect((await backend.list({ runId }))[0]!.diskBytes).toBeUndefined();
      const removed = await backend.cleanup({ runId, olderThan: cut });
      expect(removed).toMatchObject({ failed: [] });
      expect(removed.removed.map((s) => s.sampleId)).toEqual(['old']);
      expect((await backend.list({ runId })).map((s) => s.sampleId)).toEqual(['young']);
    } finally {
      await young.destroy();
      await old.destroy().catch(() => undefined);
      await backend.cleanup({ runId });
    }
  });
});

describe('the backend registry', () => {
  it('gives a backend registered by name for that name, and lists it among the known ones until it is taken out', async () => {
    const made: string[] = [];
    const twin = { ...dockerBackend(), name: 'docker-twin' };
    const unregister = registerSandboxBackend('docker-twin', () => {
      made.push('twin');
      return twin;
    });
    const runId = testRunId('registry');
    try {
      expect(SANDBOX_BACKENDS).toEqual(['docker', 'docker-twin']);
      const backend = sandboxBackend('docker-twin');
      expect(backend).toBe(twin);
      expect(made).toEqual(['twin']);
      const sandbox = await backend.create({ image: PYTHON_IMAGE, runId, sampleId: 'twin' });
      try {
        expect((await sandbox.exec(['echo', 'from the twin'])).stdout).toBe('from the twin\n');
        expect((await sandboxBackend().list({ runId })).map((s) => s.id)).toEqual([sandbox.id]);
      } finally {
        await sandbox.destroy();
      }
      // Engines given by --docker-host are for backends that take them.
      expect(() => sandboxBackend('docker-twin', [{ url: 'unix:///var/run/docker.sock', capacity: 1 }])).toThrow(
        new UserError('--docker-host is for the docker backend, not "docker-twin"'),
      );
      expect(() => registerSandboxBackend('docker-twin', () => twin)).toThrow('registered already');
    } finally {
      unregister();
      await sandboxBackend().cleanup({ runId });
    }
    expect(SANDBOX_BACKENDS).toEqual(['docker']);
    const unknown = (() => {
      try {
        sandboxBackend('docker-twin');
      } catch (e) {
        return e;
      }
    })();
    expect(unknown).toBeInstanceOf(UserError);
    expect(unknown).toMatchObject({ message: 'unknown sandbox backend "docker-twin"', fix: 'use one of: docker' });
  });
});
