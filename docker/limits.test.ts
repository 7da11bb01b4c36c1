import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { LIST_PROCESSES, strayProcesses, testRunId } from './testing.js';
import type { ExecResult, Sandbox } from './types.js';
import { AGENT_USER } from '../core/sandbox.js';

const runId = testRunId('limits');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'limits' });
});
afterAll(async () => {
  await sandbox?.destroy();
});

/** Largest gap between ticks of a 50 ms timer while `work` runs: how unresponsive this process got. */
async function maxEventLoopGap<T>(work: () => Promise<T>): Promise<{ result: T; gapMs: number }> {
  let last = Date.now();
  let gapMs = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
  }, 50);
  try {
    return { result: await work(), gapMs };
  } finally {
    clearInterval(timer);
  }
}

describe('sandbox limits', () => {
  it('has no network: connections fail and only the loopback interface exists', async () => {
    const probe = `
import socket
results = []
for host, port in [("192.0.2.1", 80), ("198.51.100.1", 53), ("example.com", 80), ("example.org", 443)]:
    try:
        socket.create_connection((host, port), timeout=3).close()
        results.append(f"{host}: CONNECTED")
    except OSError as e:
        results.append(f"{host}: failed ({type(e).__name__})")
print("\\n".join(results))
`;
    const r = await sandbox.exec(['python3', '-c', probe], { user: AGENT_USER, timeoutMs: 30_000 });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).not.toMatch(/CONNECTED/);
    expect(r.stdout.match(/failed/g)).toHaveLength(4);
    expect((await sandbox.exec(['ls', '/sys/class/net'])).stdout.split(/\s+/).filter(Boolean)).toEqual(['lo']);
  });

  it('kills an allocation of 2 GiB under the default 1 GiB limit and reports it as out of memory', async () => {
    const r = await sandbox.exec(['python3', '-c', 'b = bytearray(2 * 1024**3); b[::4096] = b"x" * len(b[::4096]); print("allocated")'], {
      user: AGENT_USER,
      timeoutMs: 60_000,
    });
    expect(r.stdout).not.toMatch(/allocated/);
    expect(r.exitCode).not.toBe(0);
    expect(r.oomKilled).toBe(true);
    expect(r.timedOut).toBe(false);
    // The sandbox survives, and the next command is not blamed for the earlier kill.
    const after = await sandbox.exec(['python3', '-c', 'print(len(bytearray(64 * 1024**2)))'], { user: AGENT_USER });
    expect(after).toMatchObject({ exitCode: 0, stdout: '67108864\n', oomKilled: false });
  });

  it('contains a fork bomb with the pids limit while this process stays responsive', async () => {
    const bomb = 'bomb() { bomb | bomb & }; bomb; sleep 3';
    // Once ending on its own (the leftovers are reaped), once cut by the timeout (the tree is killed).
    for (const timeoutMs of [60_000, 1_500]) {
      const { result, gapMs } = await maxEventLoopGap(() => sandbox.exec(['bash', '-c', bomb], { user: AGENT_USER, timeoutMs }));
      expect(gapMs).toBeLessThan(1_000);
      expect(result.timedOut).toBe(timeoutMs < 60_000);
      // Nothing of the bomb is left: the slots are free and the sandbox runs commands normally.
      const count = await sandbox.exec('n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo $n');
      expect(Number(count.stdout.trim())).toBeLessThan(8);
      expect(strayProcesses((await sandbox.exec(LIST_PROCESSES)).stdout)).toEqual([]);
      expect(await sandbox.exec(['echo', 'alive'])).toMatchObject({ exitCode: 0, stdout: 'alive\n' });
    }
  });

  it('holds at most the pids limit of processes', async () => {
    const small = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'pids', pidsLimit: 32 });
    try {
      const r = await small.exec(
        [
          'python3',
          '-c',
          'import os,time\nn=0\ntry:\n  while True:\n    if os.fork()==0:\n      time.sleep(30); os._exit(0)\n    n+=1\nexcept OSError: print(n)',
        ],
        { user: AGENT_USER, timeoutMs: 20_000 },
      );
      expect(r.exitCode).toBe(0);
      expect(Number(r.stdout.trim())).toBeLessThan(32);
      expect(Number(r.stdout.trim())).toBeGreaterThan(10);
    } finally {
      await small.destroy();
    }
  });

  it('cuts a command that prints 100 MB to the cap, keeping head and tail, with bounded memory here', async () => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const program =
      'import sys\nw = sys.stdout.buffer.write\nw(b"HEAD-MARK\\n")\nline = b"y" * 1023 + b"\\n"\nfor _ in range(100 * 1024): w(line)\nw(b"TAIL-MARK\\n")';
    let r: ExecResult;
    try {
      r = await sandbox.exec(['python3', '-c', program], { user: AGENT_USER, timeoutMs: 60_000 });
    } finally {
      clearInterval(sampler);
    }
    const printed = 100 * 1024 * 1024 + 20;
    expect(r.exitCode).toBe(0);
    expect(r.stdout.startsWith('HEAD-MARK\n')).toBe(true);
    expect(r.stdout.endsWith('TAIL-MARK\n')).toBe(true);
    expect(r.stdoutCutBytes).toBe(printed - 1024 * 1024);
    expect(r.stdout).toContain(`[… ${r.stdoutCutBytes} bytes cut …]`);
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(1024 * 1024 + 100);
    expect(r.stderrCutBytes).toBe(0);
    // 100 MB went through; holding it would cost at least that much.
    expect(peak - before).toBeLessThan(60 * 1024 * 1024);
  });

  it('applies a smaller output cap per command and to stderr', async () => {
    const r = await sandbox.exec(['python3', '-c', 'import sys; sys.stderr.write("E" * 5000 + "end")'], { maxOutputBytes: 1000 });
    expect(r.stderrCutBytes).toBe(5003 - 1000);
    expect(r.stderr.startsWith('E'.repeat(500))).toBe(true);
    expect(r.stderr.endsWith('end')).toBe(true);
  });

  it('keeps the agent user from modifying a root-owned read-only file, and from gaining root', async () => {
    await sandbox.writeFiles([{ path: '/opt/tests/test_locked.py', content: 'assert True\n', mode: 0o444 }]);
    const attempts = [
      'echo "hacked" >> /opt/tests/test_locked.py',
      'chmod 666 /opt/tests/test_locked.py',
      'rm -f /opt/tests/test_locked.py',
      'mv /opt/tests/test_locked.py /tmp/',
      'touch /etc/agent-was-here',
    ];
    for (const attempt of attempts) {
      const r = await sandbox.exec(attempt, { user: AGENT_USER });
      expect(r.exitCode, attempt).not.toBe(0);
    }
    expect((await sandbox.readFile('/opt/tests/test_locked.py')).toString()).toBe('assert True\n');
    const caps = await sandbox.exec(['sh', '-c', 'grep -E "^Cap(Eff|Prm|Amb)|NoNewPrivs" /proc/self/status'], { user: AGENT_USER });
    expect(caps.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(caps.stdout).toMatch(/NoNewPrivs:\s+1/);
    // Root in the sandbox keeps only what setup needs: no mounting, no raw sockets, no module loading.
    const rootMount = await sandbox.exec(['mount', '-t', 'tmpfs', 'none', '/mnt']);
    expect(rootMount.exitCode).not.toBe(0);
  });
});
