import { randomBytes } from 'node:crypto';
import type { ImageCheck } from './types.js';
import { readShipped } from '../../core/shipped.js';
import { SandboxError } from '../errors.js';
import { createSandbox } from '../sandbox.js';
import { AGENT_HOME, AGENT_UID, AGENT_USER } from '../../core/sandbox.js';

export type { ImageCheck } from './types.js';

/** Run as the agent: python 3.11, pytest importable, the agent user (argv: name, uid) as expected; prints the versions. */
const PROBE = readShipped(import.meta.url, 'verify-probe.py');

/**
 * Proves an image can serve as a sandbox: it starts with the keep-alive, has python 3.11 with
 * pytest and git, and runs commands as the agent user (uid AGENT_UID) with a writable home.
 */
export async function verifyPythonImage(image: string): Promise<ImageCheck> {
  const sandbox = await createSandbox({ image, runId: `images-verify-${randomBytes(3).toString('hex')}`, sampleId: 'verify' });
  try {
    const probe = await sandbox.exec(['python3', '-c', PROBE, AGENT_USER, String(AGENT_UID)], {
      user: AGENT_USER,
      cwd: AGENT_HOME,
      timeoutMs: 60_000,
    });
    if (probe.exitCode !== 0) {
      const why = probe.stderr.trim().split('\n').pop() || `exit code ${probe.exitCode}`;
      throw new SandboxError(`image ${image} is not a usable Python sandbox: ${why}`);
    }
    const git = await sandbox.exec(['git', '--version'], { user: AGENT_USER, timeoutMs: 30_000 });
    if (git.exitCode !== 0) throw new SandboxError(`image ${image} has no working git`);
    const home = await sandbox.exec(['sh', '-c', 'touch "$HOME/.probe" && rm "$HOME/.probe"'], { user: AGENT_USER, env: { HOME: AGENT_HOME } });
    if (home.exitCode !== 0) throw new SandboxError(`image ${image}: the agent user cannot write its home folder`);
    const [python = '', pytest = ''] = probe.stdout.trim().split(/\s+/);
    return { python, pytest, git: git.stdout.trim().replace(/^git version /, '') };
  } finally {
    await sandbox.destroy();
  }
}
