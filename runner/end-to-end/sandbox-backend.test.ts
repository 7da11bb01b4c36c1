import { describe, expect, it } from 'vitest';
import { UserError } from '../../core/errors.js';
import { registerSandboxBackend, sandboxBackend } from '../../docker/backends.js';
import { testRunId } from '../../docker/testing.js';
import type { SandboxBackend } from '../../docker/types.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import { parseExperiment } from '../settings/config.js';
import { realWiring } from '../wiring/real-wiring.js';

describe('the sandbox backend a run uses', () => {
  it('is the one registered under the name its settings give, and an unknown name is refused listing the known ones', async () => {
    const docker = sandboxBackend();
    const made: string[] = [];
    const twin: SandboxBackend = {
      ...docker,
      name: 'docker-twin',
      create: (o) => {
        made.push(o.sampleId);
        return docker.create(o);
      },
    };
    const unregister = registerSandboxBackend('docker-twin', () => twin);
    const runId = testRunId('wired-backend');
    try {
      const wiring = await realWiring(parseExperiment({ models: 'scripted/honest', sandbox: 'docker-twin' }, 'e.yaml'));
      const sandbox = await wiring.services.createSandbox(digitSumTask('original'), 'full', { runId, sampleId: 'wired' });
      try {
        expect(made).toEqual(['wired']);
        expect((await sandbox.exec(['echo', 'wired'])).stdout).toBe('wired\n');
      } finally {
        await sandbox.destroy();
        await wiring.close();
      }
      let refused: unknown;
      try {
        parseExperiment({ models: 'scripted/honest', sandbox: 'nowhere' }, 'e.yaml');
      } catch (err) {
        refused = err;
      }
      expect(refused).toBeInstanceOf(UserError);
      expect((refused as UserError).message).toContain('unknown sandbox backend "nowhere"; use one of: docker, docker-twin');
    } finally {
      unregister();
      await docker.cleanup({ runId });
    }
  });
});
