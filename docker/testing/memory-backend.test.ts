import { describe, expect, it } from 'vitest';
import { SANDBOX_BACKENDS, sandboxBackend } from '../backends.js';
import { SandboxError } from '../errors.js';
import { hangUntilKilled, MEMORY_SANDBOX, type MemoryCommand, memoryBackend, registerMemoryBackend } from './memory-backend.js';

const opts = { image: 'any', runId: 'r1', sampleId: 's1' };

describe('the in-process sandbox backend', () => {
  it('is a backend by name only while a test registers it', async () => {
    expect(SANDBOX_BACKENDS).not.toContain(MEMORY_SANDBOX);
    const { backend, unregister } = registerMemoryBackend();
    try {
      expect(SANDBOX_BACKENDS).toContain(MEMORY_SANDBOX);
      expect(sandboxBackend(MEMORY_SANDBOX)).toBe(backend);
    } finally {
      unregister();
    }
    expect(SANDBOX_BACKENDS).not.toContain(MEMORY_SANDBOX);
  });

  it('keeps files in memory, with their owners, and reports changes and disk use against its image', async () => {
    const sandbox = await memoryBackend({ image: { '/etc/motd': 'hi\n', '/etc/gone': 'x' } }).create(opts);
    await sandbox.writeFiles([
      { path: '/work/a.py', content: 'print(1)\n', uid: 1000, gid: 1000, mode: 0o600 },
      { path: '/work/sub/b.txt', content: Buffer.from('bee') },
      { path: '/etc/motd', content: 'changed\n' },
    ]);
    sandbox.remove('/etc/gone');
    expect((await sandbox.readFile('/work/a.py')).toString()).toBe('print(1)\n');
    expect(sandbox.file('/work/a.py')).toMatchObject({ uid: 1000, gid: 1000, mode: 0o600 });
    expect([...(await sandbox.readDir('/work')).keys()].sort()).toEqual(['a.py', 'sub/b.txt']);
    await expect(sandbox.readFile('/work/none')).rejects.toThrow(/no file/);
    await expect(sandbox.readDir('/nowhere')).rejects.toThrow(/no folder/);
    expect(await sandbox.changes()).toEqual([
      { path: '/etc/gone', kind: 'deleted' },
      { path: '/etc/motd', kind: 'modified' },
      { path: '/work/a.py', kind: 'added' },
      { path: '/work/sub/b.txt', kind: 'added' },
    ]);
    expect(await sandbox.diskUsage()).toBe('print(1)\n'.length + 3 + 'changed\n'.length);
  });

  it('answers each command with the first route that matches, as the user asked, and says when none does', async () => {
    const sandbox = await memoryBackend({
      routes: [
        { match: /^cat /, run: (c) => ({ stdout: c.sandbox.text(c.argv[1]!) ?? '', exitCode: c.sandbox.text(c.argv[1]!) ? 0 : 1 }) },
        { match: (c: MemoryCommand) => c.argv[0] === 'whoami', run: (c) => ({ stdout: `${c.user} in ${c.cwd} with ${c.env.X} and ${c.stdin}` }) },
      ],
    }).create({ ...opts, workdir: '/w', env: { X: 'x' } });
    sandbox.put('/f', 'content');
    expect((await sandbox.exec(['cat', '/f'])).stdout).toBe('content');
    expect((await sandbox.exec(['cat', '/none'])).exitCode).toBe(1);
    expect((await sandbox.exec(['whoami'], { user: 'agent', stdin: 'in' })).stdout).toBe('agent in /w with x and in');
    const none = await sandbox.exec('rm -rf /');
    expect([none.exitCode, none.stderr]).toEqual([127, 'memory sandbox: no handler for: /bin/sh -c rm -rf /']);
    await expect(sandbox.exec(['whoami'], { user: 'mallory' })).rejects.toBeInstanceOf(SandboxError);
    expect(sandbox.commands.map((c) => c.argv[0])).toEqual(['cat', 'cat', 'whoami', '/bin/sh']);
  });

  it('honours the timeout, the abort signal and the output cap as the contract says', async () => {
    const sandbox = await memoryBackend({
      routes: [
        { match: /^sleep/, run: (c) => hangUntilKilled(c.signal) },
        { match: /^yes/, run: () => ({ stdout: 'y'.repeat(1000), stderr: 'e' }) },
      ],
    }).create(opts);
    const slow = await sandbox.exec(['sleep'], { timeoutMs: 20 });
    expect([slow.timedOut, slow.exitCode]).toEqual([true, null]);
    const abort = new AbortController();
    const aborted = sandbox.exec(['sleep'], { signal: abort.signal });
    abort.abort(new Error('stop now'));
    await expect(aborted).rejects.toThrow('stop now');
    const big = await sandbox.exec(['yes'], { maxOutputBytes: 100 });
    expect([big.stdoutCutBytes, big.stderrCutBytes, big.stdout.length < 200]).toEqual([900, 0, true]);
    expect(big.stderr).toBe('e');
  });

  it('lists and removes its sandboxes; a removed one fails every call as the machinery’s failure', async () => {
    const backend = memoryBackend();
    const a = await backend.create(opts);
    await backend.create({ ...opts, runId: 'r2', sampleId: 's2' });
    expect((await backend.list({ runId: 'r1' })).map((s) => s.sampleId)).toEqual(['s1']);
    expect((await backend.cleanup({ runId: 'r1' })).removed.map((s) => s.id)).toEqual([a.id]);
    await expect(a.exec(['true'])).rejects.toBeInstanceOf(SandboxError);
    await expect(a.readFile('/x')).rejects.toBeInstanceOf(SandboxError);
    await backend.destroyAll();
    expect(await backend.list()).toEqual([]);
  });
});
