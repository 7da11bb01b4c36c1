import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { AGENT_USER } from '../core/sandbox.js';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { testRunId } from './testing.js';
import type { Sandbox } from './types.js';

/** An agent program's binary is shown to the sandbox as one read-only file: it runs, and nothing in there changes it. */
const runId = testRunId('ro-files');
const dir = mkdtempSync(join(tmpdir(), 'ib-ro-files-'));
const program = join(dir, 'agent-program');
let sandbox: Sandbox;

beforeAll(async () => {
  writeFileSync(program, '#!/bin/sh\necho "agent program ran as $(id -un) with $*"\n');
  chmodSync(program, 0o755);
  sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'ro', readOnlyFiles: [{ source: program, target: '/opt/agent/bin/agent' }] });
});
afterAll(async () => {
  await sandbox?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('read-only files in a sandbox', () => {
  it('the agent user runs the file', async () => {
    const r = await sandbox.exec(['/opt/agent/bin/agent', 'x y'], { user: AGENT_USER });
    expect(r.stdout).toBe(`agent program ran as ${AGENT_USER} with x y\n`);
  });

  it('neither the agent nor root can change, replace or remove it', async () => {
    const agent = await sandbox.exec('echo evil > /opt/agent/bin/agent; rm -f /opt/agent/bin/agent; echo $?', { user: AGENT_USER });
    expect(agent.stdout.trim()).not.toBe('0');
    const root = await sandbox.exec(
      'echo evil > /opt/agent/bin/agent; echo w=$?; rm -f /opt/agent/bin/agent; echo r=$?; chmod 777 /opt/agent/bin/agent; echo c=$?',
    );
    expect(root.stdout).not.toMatch(/w=0|r=0|c=0/);
    const after = await sandbox.exec(['/opt/agent/bin/agent'], { user: AGENT_USER });
    expect(after.stdout).toContain('agent program ran');
  });

  it('refuses a folder, an engine socket, a missing file, a relative path and a system folder as the target', async () => {
    const make = (source: string, target = '/opt/x') =>
      createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'ro-bad', readOnlyFiles: [{ source, target }] });
    await expect(make(dir)).rejects.toThrow(/is a folder/);
    await expect(make('/var/run/docker.sock')).rejects.toThrow(/special file|does not exist/);
    await expect(make(join(dir, 'missing'))).rejects.toThrow(/does not exist/);
    await expect(make('agent-program')).rejects.toThrow(UserError);
    await expect(make(program, '/work')).rejects.toThrow(/may not cover/);
  });
});
