import { execa } from 'execa';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { listSandboxContainers, removeSandboxContainers } from './cleanup.js';
import { ENGINE_TIMEOUT_ENV } from './deadline.js';
import { findEngine, withEngine } from './engine.js';
import { SandboxError } from './errors.js';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { testRunId } from './testing.js';

/**
 * A socket in front of the engine that passes requests on at once but holds back the answer to a container create for
 * `holdMs`: the engine carries the create out while its caller has given up waiting.
 */
async function slowCreateAnswers(engineSocket: string, holdMs: number): Promise<{ socket: string; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ib-slow-engine-'));
  const socket = join(dir, 'engine.sock');
  const server: Server = createServer((client) => {
    const engine = connect(engineSocket);
    let heldUntil = 0;
    client.on('data', (d: Buffer) => {
      if (/^POST \S*\/containers\/create/.test(d.toString('latin1', 0, 200))) heldUntil = Date.now() + holdMs;
      engine.write(d);
    });
    engine.on('data', (d: Buffer) => {
      const wait = heldUntil - Date.now();
      if (wait <= 0) client.write(d);
      else setTimeout(() => client.destroyed || client.write(d), wait);
    });
    const end = () => {
      client.destroy();
      engine.destroy();
    };
    client.on('close', end).on('error', end);
    engine.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    socket,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const fixture = fileURLToPath(new URL('./fixtures/leave-sandboxes.ts', import.meta.url));
const bin = fileURLToPath(new URL('../bin/impossiblebench.js', import.meta.url));

describe('cleanup', () => {
  it('removes the containers of a run whose process was killed with SIGKILL, and only those', async () => {
    const killedRun = testRunId('killed');
    const otherRun = testRunId('other');
    const bystander = await createSandbox({ image: PYTHON_IMAGE, runId: otherRun, sampleId: 'keep-me' });
    try {
      const child = execa('node', ['--import', 'tsx', fixture, killedRun, '3'], { reject: false, buffer: false });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        child.once('exit', () => reject(new Error('the fixture exited before creating its sandboxes')));
      });
      child.kill('SIGKILL');
      const exit = await child;
      expect(exit.signal).toBe('SIGKILL');

      const left = await listSandboxContainers(killedRun);
      expect(left).toHaveLength(3);
      expect(left.every((c) => c.state === 'running')).toBe(true);

      // The command a user runs after a crash.
      const cli = await execa('node', [bin, 'cleanup', '--run', killedRun], { reject: false });
      expect(cli.exitCode).toBe(0);
      expect(cli.stdout.trim()).toBe(`removed 3 sandbox containers of run ${killedRun}`);
      expect(await listSandboxContainers(killedRun)).toEqual([]);
      // Another run's sandbox is untouched.
      expect((await bystander.exec(['echo', 'still here'])).stdout).toBe('still here\n');
    } finally {
      await bystander.destroy();
      await removeSandboxContainers({ runId: killedRun });
    }
  });

  it('removes every labelled container of a run, running or stopped, and reports each', async () => {
    const run = testRunId('stopped');
    const a = await createSandbox({ image: PYTHON_IMAGE, runId: run, sampleId: 'a' });
    const b = await createSandbox({ image: PYTHON_IMAGE, runId: run, sampleId: 'b' });
    const { getDocker } = await import('./engine.js');
    await (await getDocker()).getContainer(b.id).stop({ t: 0 });
    const result = await removeSandboxContainers({ runId: run });
    expect(result.failed).toEqual([]);
    expect(result.removed.map((c) => c.sampleId).sort()).toEqual(['a', 'b']);
    expect(await listSandboxContainers(run)).toEqual([]);
    await a.destroy();
    await b.destroy();
  });

  it('finds nothing to do for an unknown run', async () => {
    expect(await removeSandboxContainers({ runId: testRunId('never-ran') })).toEqual({ removed: [], failed: [] });
  });

  it('removes a container the engine made after its create was given up at the deadline', async () => {
    const { found } = await findEngine();
    const engineSocket = (found?.endpoint.options as { socketPath?: string } | undefined)?.socketPath;
    expect(engineSocket, 'the engine is reached through a unix socket here').toBeTruthy();
    const slow = await slowCreateAnswers(engineSocket!, 3_000);
    const run = testRunId('late-create');
    const before = process.env[ENGINE_TIMEOUT_ENV];
    process.env[ENGINE_TIMEOUT_ENV] = '1';
    try {
      const endpoint = { label: `slow ${slow.socket}`, kind: 'DOCKER_HOST' as const, options: { socketPath: slow.socket } };
      const err = await withEngine(endpoint, () => createSandbox({ image: PYTHON_IMAGE, runId: run, sampleId: 'late' })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxError);
      expect((err as Error).message).toMatch(/did not answer in 1 s \(create a container\)/);
      // The engine made it all the same; it goes without anyone asking.
      const seen = new Set<string>();
      for (let waited = 0; waited < 30_000; waited += 100) {
        for (const c of await listSandboxContainers(run)) seen.add(c.id);
        if (seen.size > 0 && (await listSandboxContainers(run)).length === 0) break;
        await delay(100);
      }
      expect(seen.size).toBe(1);
      expect(await listSandboxContainers(run)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env[ENGINE_TIMEOUT_ENV];
      else process.env[ENGINE_TIMEOUT_ENV] = before;
      await removeSandboxContainers({ runId: run });
      await slow.close();
    }
  });
});
