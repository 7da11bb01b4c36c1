import { describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { getDocker } from './engine.js';
import { SandboxError } from './errors.js';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { testRunId, withSandbox } from './testing.js';
import { AGENT_USER } from '../core/sandbox.js';

const runId = testRunId('lifecycle');

describe('sandbox lifecycle', () => {
  it('is labelled with its run and sample and carries the requested limits', async () => {
    await withSandbox(
      runId,
      async (sandbox) => {
        const info = await (await getDocker()).getContainer(sandbox.id).inspect();
        expect(info.Config.Labels).toMatchObject({ 'impossiblebench.run': runId, 'impossiblebench.sample': 'limits/odd name' });
        expect(info.HostConfig).toMatchObject({
          NetworkMode: 'none',
          Memory: 512 * 1024 ** 2,
          MemorySwap: 512 * 1024 ** 2,
          NanoCpus: 1.5e9,
          PidsLimit: 64,
          Privileged: false,
          CapDrop: ['ALL'],
        });
        expect(info.HostConfig.SecurityOpt).toContain('no-new-privileges:true');
        expect(info.HostConfig.Binds ?? []).toEqual([]);
        expect(JSON.stringify(info.Mounts)).not.toContain('docker.sock');
        const cgroup = await sandbox.exec([
          'sh',
          '-c',
          'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes',
        ]);
        expect(cgroup.stdout.trim()).toBe(String(512 * 1024 ** 2));
      },
      { sampleId: 'limits/odd name', memoryBytes: 512 * 1024 ** 2, cpus: 1.5, pidsLimit: 64 },
    );
  });

  it("gets every CPU of the engine's machine when it asks for more, which the engine would refuse", async () => {
    const { NCPU } = (await (await getDocker()).info()) as { NCPU: number };
    await withSandbox(
      runId,
      async (sandbox) => {
        const info = await (await getDocker()).getContainer(sandbox.id).inspect();
        expect(info.HostConfig.NanoCpus).toBe(NCPU * 1e9);
      },
      { sampleId: 'many-cpus', cpus: NCPU + 64 },
    );
  });

  it('uses the sandbox working folder and environment by default', async () => {
    await withSandbox(
      runId,
      async (sandbox) => {
        const r = await sandbox.exec('pwd; echo "$TASK_NAME"');
        expect(r.stdout).toBe('/work\nsum two\n');
      },
      { workdir: '/work', env: { TASK_NAME: 'sum two' } },
    );
  });

  it('has a network interface only when the task asks for one', async () => {
    await withSandbox(
      runId,
      async (sandbox) => {
        const r = await sandbox.exec(['ls', '/sys/class/net']);
        expect(r.stdout.split(/\s+/).filter(Boolean).sort()).toEqual(['eth0', 'lo']);
      },
      { network: true },
    );
  });

  it('waits for a command that closed its output but is still running, and times it out honestly', async () => {
    await withSandbox(runId, async (sandbox) => {
      const done = await sandbox.exec('exec >&- 2>&-; sleep 1.5; exit 4', { user: AGENT_USER, timeoutMs: 20_000 });
      expect(done).toMatchObject({ exitCode: 4, timedOut: false });
      expect(done.durationMs).toBeGreaterThanOrEqual(1_400);
      const late = await sandbox.exec('exec >&- 2>&-; sleep 60', { user: AGENT_USER, timeoutMs: 1_500 });
      expect(late).toMatchObject({ exitCode: null, timedOut: true });
    });
  });

  it('rejects bad options with one-line errors', async () => {
    await expect(createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'x', memoryBytes: 1000 })).rejects.toThrow(UserError);
    await expect(createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'x', cpus: 0 })).rejects.toThrow(/cpus/);
    await expect(createSandbox({ image: 'impossiblebench/no-such-image:0', runId, sampleId: 'x' })).rejects.toThrow(/not present/);
    await withSandbox(runId, async (sandbox) => {
      await expect(sandbox.exec([])).rejects.toThrow(/empty command/);
      await expect(sandbox.exec(['true'], { timeoutMs: -1 })).rejects.toThrow(/timeout/);
      await expect(sandbox.exec(['true'], { env: { 'A=B': 'x' } })).rejects.toThrow(/environment variable/);
      // The runtime's own refusals come back at once, with its reason, not as the command's output.
      await expect(sandbox.exec(['true'], { user: 'nobody-here' })).rejects.toThrow(/could not start a command: unable to find user nobody-here/);
      await expect(sandbox.exec(['true'], { cwd: '/does/not/exist' })).rejects.toThrow(
        /could not start a command: .*\/does\/not\/exist.*no such file or directory/,
      );
    });
  });

  it('reports a sandbox destroyed or removed behind its back as an infrastructure error', async () => {
    const sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'gone' });
    await (await getDocker()).getContainer(sandbox.id).remove({ force: true });
    const err = await sandbox.exec(['true']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect(String((err as Error).message)).toMatch(/no longer exists|not running|stopped/);
    await sandbox.destroy(); // already gone: still fine
    await sandbox.destroy(); // and idempotent
    await expect(sandbox.exec(['true'])).rejects.toThrow(/already destroyed/);
  });
});
