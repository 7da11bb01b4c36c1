import { describe, expect, it } from 'vitest';
import { listSandboxContainers } from './cleanup.js';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox, liveSandboxCount } from './sandbox.js';
import { testRunId } from './testing.js';
import type { Sandbox } from './types.js';
import { AGENT_UID, AGENT_USER } from '../core/sandbox.js';

describe('16 sandboxes at once', () => {
  it('keeps each sample isolated: own files, own results, all removed afterwards', async () => {
    const runId = testRunId('sixteen');
    const n = 16;
    const created = await Promise.allSettled(
      Array.from({ length: n }, (_, i) => createSandbox({ image: PYTHON_IMAGE, runId, sampleId: `s${i}`, memoryBytes: 256 * 1024 ** 2 })),
    );
    const sandboxes = created.filter((c): c is PromiseFulfilledResult<Sandbox> => c.status === 'fulfilled').map((c) => c.value);
    try {
      expect(created.filter((c) => c.status === 'rejected')).toEqual([]);
      expect(new Set(sandboxes.map((s) => s.id)).size).toBe(n);
      expect(await listSandboxContainers(runId)).toHaveLength(n);

      const results = await Promise.all(
        sandboxes.map(async (sandbox, i) => {
          // Folders the engine creates for written files belong to root: give the agent its own.
          await sandbox.exec(['install', '-d', '-o', AGENT_USER, '-g', AGENT_USER, '/work']);
          await sandbox.writeFiles([
            { path: '/work/func.py', content: `def f():\n    return ${i}\n`, uid: AGENT_UID, gid: AGENT_UID },
            {
              path: '/work/test.py',
              content: `from func import f\nassert f() == ${i}\nopen("/work/out.txt", "w").write(str(f() * 10))\nprint("ok", f())\n`,
            },
          ]);
          const r = await sandbox.exec(['python3', 'test.py'], { cwd: '/work', user: AGENT_USER, timeoutMs: 60_000 });
          if (r.exitCode !== 0) return { r, out: '', ls: '' };
          // Each sandbox sees only its own files.
          const others = await sandbox.exec(['sh', '-c', 'ls /work']);
          return { r, out: (await sandbox.readFile('/work/out.txt')).toString(), ls: others.stdout };
        }),
      );
      results.forEach(({ r, out, ls }, i) => {
        expect(r).toMatchObject({ exitCode: 0, stdout: `ok ${i}\n`, timedOut: false });
        expect(out).toBe(String(i * 10));
        expect(ls).toBe('__pycache__\nfunc.py\nout.txt\ntest.py\n');
      });
    } finally {
      await Promise.all(sandboxes.map((s) => s.destroy()));
    }
    expect(await listSandboxContainers(runId)).toEqual([]);
    expect(liveSandboxCount()).toBe(0);
  });
});
