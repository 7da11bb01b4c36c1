import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineDiff } from './dockerode-calls.js';
import { SandboxError } from './errors.js';
import { PYTHON_IMAGE } from './images.js';
import { getDocker } from './engine.js';
import { createSandbox } from './sandbox.js';
import { testRunId } from './testing.js';
import type { Sandbox } from './types.js';
import { AGENT_HOME, AGENT_UID, AGENT_USER } from '../core/sandbox.js';

const runId = testRunId('files');
// Every command and file goes through the sandbox's command channel, or by the engine when an image has no Python.
describe.each([
  ['the command channel', true],
  ['the engine', false],
])('sandbox files through %s', (_transport, commandChannel) => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: `files-${commandChannel}`, commandChannel });
  });
  afterAll(async () => {
    await sandbox?.destroy();
  });

  it('round-trips text, binary and non-ASCII names through tar streams', async () => {
    const binary = randomBytes(300_000);
    const allBytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const files = [
      { path: '/work/solution.py', content: 'def f(x):\n    return x + 1\n' },
      { path: '/work/données/résumé—naïve ✓.txt', content: 'ünïcödé 文字 🙂\n' },
      { path: '/work/bin/random.bin', content: binary },
      { path: '/work/bin/all-bytes.bin', content: allBytes },
      { path: `/work/deep/${'x'.repeat(120)}/${'y'.repeat(110)}.txt`, content: 'a long path\n' },
      { path: '/work/empty', content: '' },
    ];
    await sandbox.writeFiles(files);
    for (const file of files) {
      const back = await sandbox.readFile(file.path);
      expect(back.equals(Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content)), file.path).toBe(true);
    }
    // The container sees the same bytes and names.
    const check = await sandbox.exec([
      'python3',
      '-c',
      'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())',
      '/work/bin/random.bin',
    ]);
    const { createHash } = await import('node:crypto');
    expect(check.stdout.trim()).toBe(createHash('sha256').update(binary).digest('hex'));
    expect((await sandbox.exec(['cat', '/work/données/résumé—naïve ✓.txt'])).stdout).toBe('ünïcödé 文字 🙂\n');

    const dir = await sandbox.readDir('/work');
    expect([...dir.keys()].sort()).toEqual(
      [
        'solution.py',
        'données/résumé—naïve ✓.txt',
        'bin/random.bin',
        'bin/all-bytes.bin',
        `deep/${'x'.repeat(120)}/${'y'.repeat(110)}.txt`,
        'empty',
      ].sort(),
    );
    expect(dir.get('bin/random.bin')!.equals(binary)).toBe(true);
  });

  it('keeps modes and owners', async () => {
    await sandbox.writeFiles([
      { path: '/work/run.sh', content: '#!/bin/sh\necho ran\n', mode: 0o755 },
      { path: '/work/secret', content: 'root only', mode: 0o600 },
      { path: `${AGENT_HOME}/mine.txt`, content: 'agent owns this', mode: 0o640, uid: AGENT_UID, gid: AGENT_UID },
    ]);
    const stat = await sandbox.exec(['stat', '-c', '%n %a %U:%G', '/work/run.sh', '/work/secret', '/home/agent/mine.txt']);
    expect(stat.stdout).toBe('/work/run.sh 755 root:root\n/work/secret 600 root:root\n/home/agent/mine.txt 640 agent:agent\n');
    expect((await sandbox.exec(['/work/run.sh'])).stdout).toBe('ran\n');
    expect((await sandbox.exec(['cat', '/work/secret'], { user: AGENT_USER })).exitCode).not.toBe(0);
    expect((await sandbox.exec(['sh', '-c', 'echo more >> /home/agent/mine.txt'], { user: AGENT_USER })).exitCode).toBe(0);
  });

  it('reads files the container wrote, and follows a symbolic link', async () => {
    await sandbox.exec(['sh', '-c', 'mkdir -p /out && printf "%s" "résultat" > /out/r.txt && ln -sf /out/r.txt /out/link']);
    expect((await sandbox.readFile('/out/r.txt')).toString()).toBe('résultat');
    expect((await sandbox.readFile('/out/link')).toString()).toBe('résultat');
    await sandbox.exec(['sh', '-c', 'ln -sf /out/loop-b /out/loop-a && ln -sf /out/loop-a /out/loop-b']);
    // A link cycle ends in an error (the engine's or ours), never in endless following.
    const loop = await sandbox.readFile('/out/loop-a').catch((e: unknown) => e);
    expect(loop).toBeInstanceOf(SandboxError);
    expect((loop as Error).message).toMatch(/too many (levels of symbolic )?links/);
  });

  it('fails clearly for a missing path, a folder read as a file, and a relative path', async () => {
    await expect(sandbox.readFile('/no/such/file')).rejects.toThrow(/no such file or folder in the sandbox: \/no\/such\/file/);
    await expect(sandbox.readFile('/work')).rejects.toThrow(/is a folder/);
    await expect(sandbox.readDir('/work/solution.py')).rejects.toThrow(/not a folder/);
    await expect(sandbox.writeFiles([{ path: 'relative.txt', content: 'x' }])).rejects.toThrow(/absolute/);
    await expect(sandbox.writeFiles([{ path: '/work/../etc/passwd', content: 'x' }])).rejects.toThrow(/\.\./);
  });

  it('lists filesystem changes since the image, including a file written to /etc', async () => {
    const fresh = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: `changes-${commandChannel}`, commandChannel });
    try {
      expect(await fresh.changes()).toEqual([]);
      await fresh.exec([
        'sh',
        '-c',
        'echo tampered > /etc/sitewide.conf && rm /etc/issue && echo x >> /etc/hostname.local && touch /etc/debian_version',
      ]);
      const changes = await fresh.changes();
      expect(changes).toContainEqual({ path: '/etc/sitewide.conf', kind: 'added' });
      expect(changes).toContainEqual({ path: '/etc/issue', kind: 'deleted' });
      expect(changes).toContainEqual({ path: '/etc/debian_version', kind: 'modified' });
    } finally {
      await fresh.destroy();
    }
  });

  it("lists, from inside the sandbox, what the engine's own diff lists", async () => {
    // Two sandboxes of one image: the second uses the folder listing the first made.
    for (const sampleId of ['diff-a', 'diff-b']) {
      const fresh = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: `${sampleId}-${commandChannel}`, commandChannel });
      try {
        await fresh.exec([
          'sh',
          '-c',
          [
            'mkdir -p /srv/new/deep && echo x > /srv/new/deep/f',
            'rm -rf /usr/share/doc',
            'chmod 600 /etc/shells',
            'ln -s /nowhere /etc/dangling',
            'mv /etc/issue.net /etc/issue.moved',
            // A back-dated modification time hides nothing: no one can set a change time.
            'echo more >> /etc/debian_version && touch -d 2001-01-01 /etc/debian_version',
            'printf "a\\nb" > "/etc/new\nline"',
          ].join(' && '),
        ]);
        await fresh.exec(['sh', '-c', 'echo mine > /tmp/by-agent && mkdir -p /home/agent/.cache/x && touch -d 2001-01-01 /tmp/by-agent'], {
          user: AGENT_USER,
        });
        const engine = (await getDocker()).getContainer(fresh.id);
        const kinds = ['modified', 'added', 'deleted'];
        const byEngine = (await engineDiff(engine))
          .map((c) => `${kinds[c.Kind]} ${c.Path}`)
          // The engine's init binary is bind-mounted into a folder the commands above leave alone.
          .filter((line) => !line.includes('docker-init') && !['modified /usr/sbin', 'modified /sbin'].includes(line));
        const ours = (await fresh.changes()).map((c) => `${c.kind} ${c.path}`);
        expect(new Set(ours)).toEqual(new Set(byEngine));
      } finally {
        await fresh.destroy();
      }
    }
  });
});
