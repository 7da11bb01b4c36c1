import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listSandboxContainers, removeSandboxContainers } from './cleanup.js';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { testRunId } from './testing.js';

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
});
