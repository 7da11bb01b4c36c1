import { describe, expect, it } from 'vitest';
import { AGENT_USER, ROOT_USER } from '../core/sandbox.js';
import { testRunId, withSandbox } from './testing.js';
import type { Sandbox } from './types.js';
import { CLEAN_USER_FN } from './user-cleanup.js';

const runId = testRunId('user-cleanup');

describe('ending everything of one user', () => {
  it('holds under `set -e` while the user churns out short-lived processes, and leaves none of them', () =>
    withSandbox(runId, (sandbox) => churnAndClean(sandbox), { sampleId: 'user-cleanup' }));
});

async function churnAndClean(sandbox: Sandbox): Promise<void> {
  // Processes that end between the listing of /proc and the read of their status, or between being stopped and being
  // killed: the scripts that grade run these functions under `set -e`, where neither may end the script.
  const script = `${CLEAN_USER_FN}\nset -e\nib_clean_user "$1"\necho finished`;
  // Zombies have ended and wait only for init to reap them: what counts is a process of the user that can still run.
  const count =
    'awk -v uid="$(id -u "$1")" \'FNR == 1 { zombie = 0 } $1 == "State:" && $2 == "Z" { zombie = 1 } $1 == "Uid:" && $2 == uid && !zombie { n++ } END { print n + 0 }\' /proc/[0-9]*/status 2>/dev/null || true';
  for (let round = 0; round < 10; round++) {
    const churn = await sandbox.exec(['sh', '-c', 'setsid sh -c "while :; do /bin/true; done" >/dev/null 2>&1 & sleep 0.2; echo started'], {
      user: AGENT_USER,
      keepBackground: true,
    });
    expect(churn.stdout).toContain('started');
    const run = await sandbox.exec(['sh', '-c', script, 'clean', AGENT_USER], { user: ROOT_USER, timeoutMs: 60_000 });
    expect({ round, exitCode: run.exitCode, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({
      round,
      exitCode: 0,
      stdout: 'finished',
      stderr: '',
    });
    const left = await sandbox.exec(['sh', '-c', count, 'count', AGENT_USER], { user: ROOT_USER });
    expect(left.stdout.trim()).toBe('0');
  }
}
