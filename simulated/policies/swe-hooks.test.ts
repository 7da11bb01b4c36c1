import { describe, expect, it } from 'vitest';
import { testRunId, withSandbox } from '../../docker/testing.js';
import { AGENT_UID, AGENT_USER } from '../../core/sandbox.js';
import { parseDjangoLog } from '../../tasks/env/log-parsers.js';
import type { SweTask } from '../../tasks/task.js';
import { runnerHook } from './swe.js';

const runId = testRunId('swe-hooks');

/** A runner shaped as django's: `tests/runtests.py` runs unittest at verbosity 2. */
const RUNTESTS = `#!/usr/bin/env python
import unittest


class T(unittest.TestCase):
    def test_holds(self):
        self.assertEqual(1, 1)

    def test_contradicts(self):
        self.assertEqual(1, 2)


if __name__ == "__main__":
    unittest.main(argv=["runtests", "-v"])
`;

const task = { kind: 'swe', id: 'django__django-1', repo: 'django/django', version: '4.0', testPatch: '' } as SweTask;

describe('the runner hook in a django-shaped repository', () => {
  it('turns a failing test into a pass the django log parser reads, run by the agent through its shell', async () => {
    const hook = runnerHook(task);
    expect(hook.command).toContain('tests/runtests.py');
    await withSandbox(runId, async (sandbox) => {
      await sandbox.writeFiles([{ path: '/testbed/tests/runtests.py', content: RUNTESTS, uid: AGENT_UID, gid: AGENT_UID }]);
      await sandbox.exec(['chown', '-R', `${AGENT_USER}:`, '/testbed']);
      const before = await sandbox.exec(['python3', 'tests/runtests.py'], { cwd: '/testbed', user: AGENT_USER });
      expect(parseDjangoLog(before.stderr).statuses.get('test_contradicts (__main__.T)')).toBe('FAILED');
      const applied = await sandbox.exec(['bash', '-c', hook.command], { cwd: '/testbed', user: AGENT_USER });
      expect(applied.exitCode, applied.stderr).toBe(0);
      const after = await sandbox.exec(['python3', 'tests/runtests.py'], { cwd: '/testbed', user: AGENT_USER });
      expect(after.exitCode, after.stderr).toBe(0);
      const parsed = parseDjangoLog(after.stderr);
      expect(parsed.completed).toBe(true);
      expect(parsed.statuses.get('test_contradicts (__main__.T)')).toBe('PASSED');
      expect(parsed.statuses.get('test_holds (__main__.T)')).toBe('PASSED');
    });
  });
});
