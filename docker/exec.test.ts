import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { LIST_PROCESSES, strayProcesses, testRunId } from './testing.js';
import type { Sandbox } from './types.js';
import { AGENT_USER } from '../core/sandbox.js';

const runId = testRunId('exec');
// Every command and file goes through the sandbox's command channel, or by the engine when an image has no Python.
describe.each([
  ['the command channel', true],
  ['the engine', false],
])('exec through %s', (_transport, commandChannel) => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: `exec-${commandChannel}`, env: { SANDBOX_WIDE: 'yes' }, commandChannel });
  });
  afterAll(async () => {
    await sandbox?.destroy();
  });

  it('runs argv without a shell: metacharacters stay literal', async () => {
    const r = await sandbox.exec(['printf', '%s|', 'a b', '$HOME', '; rm -rf /', "it's"]);
    expect(r).toMatchObject({ exitCode: 0, stdout: "a b|$HOME|; rm -rf /|it's|", stderr: '', timedOut: false });
  });

  it('runs a shell string, keeps stdout and stderr apart and reports the exit code', async () => {
    const r = await sandbox.exec('echo to-out; echo to-err >&2; exit 7');
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('to-out\n');
    expect(r.stderr).toBe('to-err\n');
  });

  it('honours cwd, env (sandbox-wide and per command) and user', async () => {
    await sandbox.exec(['mkdir', '-p', '/work/sub']);
    const r = await sandbox.exec('pwd; id -un; echo "$SANDBOX_WIDE $PER_COMMAND"', {
      cwd: '/work/sub',
      env: { PER_COMMAND: 'hello world' },
      user: AGENT_USER,
    });
    expect(r.stdout).toBe('/work/sub\nagent\nyes hello world\n');
    expect((await sandbox.exec(['id', '-u'])).stdout).toBe('0\n');
  });

  it('runs as a user name only: a numeric id is what another backend could not resolve', async () => {
    await expect(sandbox.exec(['true'], { user: '1000' })).rejects.toThrow(/user name/);
    await expect(sandbox.exec(['true'], { user: '1000:1000' })).rejects.toThrow(/user name/);
    expect((await sandbox.exec(['id', '-un'], { user: 'nobody' })).stdout).toBe('nobody\n');
  });

  it('feeds stdin and closes it, so the command sees end of input', async () => {
    const input = Buffer.concat([Buffer.from('line one\nlïne twö\n'), Buffer.alloc(100_000, 0x61)]);
    const r = await sandbox.exec(['python3', '-c', 'import sys,hashlib; d=sys.stdin.buffer.read(); print(len(d), hashlib.sha256(d).hexdigest())'], {
      stdin: input,
    });
    const { createHash } = await import('node:crypto');
    expect(r.stdout.trim()).toBe(`${input.length} ${createHash('sha256').update(input).digest('hex')}`);
  });

  it('reports a missing program as exit 127, not a crash', async () => {
    const r = await sandbox.exec(['no-such-program-here']);
    expect(r.exitCode).toBe(127);
    expect(r.stderr).toMatch(/not found/);
  });

  it('kills a command at its timeout, returns within 5 s and leaves no process behind', async () => {
    const started = Date.now();
    const r = await sandbox.exec(['sleep', '100'], { timeoutMs: 2000, user: AGENT_USER });
    const elapsed = Date.now() - started;
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(elapsed).toBeLessThan(5000);
    expect(strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout)).toEqual([]);
  });

  it('kills the whole tree on timeout: background jobs, grandchildren and a child that left the session', async () => {
    const script = 'sleep 300 & (sleep 301 &) ; setsid sleep 302 & python3 -c "import time; time.sleep(303)"';
    const r = await sandbox.exec(script, { timeoutMs: 1500, user: AGENT_USER });
    expect(r.timedOut).toBe(true);
    expect(strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout)).toEqual([]);
  });

  it('kills a root command tree on timeout too', async () => {
    const r = await sandbox.exec('sleep 200 & sleep 201', { timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect(strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout)).toEqual([]);
  });

  it('reaps what a finished command left in the background, unless asked to keep it', async () => {
    const quick = await sandbox.exec('sleep 250 & echo started', { user: AGENT_USER, timeoutMs: 10_000 });
    expect(quick).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
    expect(strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout)).toEqual([]);

    const kept = await sandbox.exec('sleep 251 >/dev/null 2>&1 </dev/null & echo started', { keepBackground: true, timeoutMs: 10_000 });
    expect(kept.exitCode).toBe(0);
    expect(strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout)).toContainEqual(expect.stringMatching(/^\d+ sleep 251$/));
    const stray = strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout).find((l) => l.endsWith('sleep 251'));
    // A signal is delivered after kill returns, and the dead process is reaped after that: wait until it is gone.
    await sandbox.exec([
      'sh',
      '-c',
      'kill -9 "$1"; for i in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.05; done',
      'reap',
      stray!.split(' ')[0]!,
    ]);
    expect(strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout)).toEqual([]);
  });

  it('passes through the exit status of a command killed by a signal', async () => {
    const r = await sandbox.exec(['sh', '-c', 'kill -TERM $$']);
    expect(r.exitCode).toBe(143);
    expect(r.timedOut).toBe(false);
  });

  it('stops at an abort signal and kills the command', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    await expect(sandbox.exec(['sleep', '100'], { signal: controller.signal, user: AGENT_USER })).rejects.toThrow(/abort/i);
    expect(strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout)).toEqual([]);
  });
});
