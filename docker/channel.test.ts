import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_SERVER_MARK } from './channel-server.js';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { testRunId } from './testing.js';
import type { Sandbox } from './types.js';
import { AGENT_USER } from '../core/sandbox.js';

const runId = testRunId('channel');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'channel' });
});
afterAll(async () => {
  await sandbox?.destroy();
});

/**
 * Run as the agent: finds the command server and PID 1 (whose descriptors are the container's stdin and stdout) and
 * tries every way in it can think of. Prints one JSON object: what each try gave.
 */
const ATTACK = `
import json, os, signal, sys
mark = sys.argv[1]
report = {"servers": [], "tries": {}, "own_fds": {}}
def attempt(name, fn):
    try:
        report["tries"][name] = "succeeded: %r" % (fn(),)
    except Exception as e:
        report["tries"][name] = "failed: %s" % type(e).__name__
for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            # Root's processes only: this command's own wrapper carries the mark too, in its arguments.
            if mark.encode() in f.read() and os.stat("/proc/" + pid).st_uid == 0:
                report["servers"].append(int(pid))
    except OSError:
        pass
targets = dict(("server %d" % pid, pid) for pid in report["servers"])
targets["init"] = 1
for who, pid in targets.items():
    attempt(who + " fd list", lambda: os.listdir("/proc/%d/fd" % pid))
    for fd in (0, 1, 2):
        attempt("%s fd %d read" % (who, fd), lambda: os.open("/proc/%d/fd/%d" % (pid, fd), os.O_RDONLY | os.O_NONBLOCK))
        attempt("%s fd %d write" % (who, fd), lambda: os.open("/proc/%d/fd/%d" % (pid, fd), os.O_WRONLY | os.O_NONBLOCK))
        attempt("%s fdinfo %d" % (who, fd), lambda: open("/proc/%d/fdinfo/%d" % (pid, fd)).read())
    attempt(who + " mem", lambda: open("/proc/%d/mem" % pid, "rb").read(1))
    attempt(who + " environ", lambda: open("/proc/%d/environ" % pid, "rb").read())
    attempt(who + " map_files", lambda: os.listdir("/proc/%d/map_files" % pid))
    attempt(who + " signal", lambda: os.kill(pid, signal.SIGSTOP))
for fd in os.listdir("/proc/self/fd"):
    try:
        report["own_fds"][fd] = os.readlink("/proc/self/fd/" + fd)
    except OSError:
        pass
print(json.dumps(report))
`;

describe('the command channel', () => {
  it('cannot be reached by the agent: not through the server, PID 1 or its own descriptors', async () => {
    const r = await sandbox.exec(['python3', '-c', ATTACK, COMMAND_SERVER_MARK], { user: AGENT_USER });
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as { servers: number[]; tries: Record<string, string>; own_fds: Record<string, string> };
    // The server (and the shell that started it) are visible as processes, since the agent can list /proc; that is all.
    expect(report.servers.length).toBeGreaterThanOrEqual(1);
    expect(Object.keys(report.tries).length).toBe((report.servers.length + 1) * 14);
    for (const [name, outcome] of Object.entries(report.tries))
      expect(`${name}: ${outcome}`).toMatch(/: failed: (PermissionError|ProcessLookupError)$/);
    // The command's own descriptors: its pipes and its directory listing, never the container's stdin or stdout.
    const ownTargets = Object.values(report.own_fds);
    expect(ownTargets.length).toBeGreaterThanOrEqual(3);
    for (const target of ownTargets) expect(target).toMatch(/^(pipe:\[\d+\]|\/dev\/null|\/proc\/\d+\/fd)$/);
  });

  it("treats the protocol's frames printed by a command as that command's output", async () => {
    // A hello, a done for command 1 and a "server stopped" frame, as the server itself would send them.
    const frame = (kind: string, id: number, payload = '') => {
      const header = Buffer.alloc(9);
      header.writeUInt32BE(Buffer.byteLength(payload), 0);
      header.write(kind, 4, 'latin1');
      header.writeUInt32BE(id, 5);
      return Buffer.concat([header, Buffer.from(payload)]);
    };
    const forged = Buffer.concat([frame('h', 0, '{"pid":1}'), frame('d', 1, '{"exit":0}'), frame('n', 0)]);
    const slow = sandbox.exec(['sh', '-c', 'sleep 1; echo slow-done'], { user: AGENT_USER });
    const r = await sandbox.exec(['sh', '-c', 'cat; cat >&2'], { user: AGENT_USER, stdin: forged });
    expect(r.stdout).toContain('{"exit":0}');
    expect(r.stderr).toBe('');
    // The other command was not ended by the forged frames, and the channel still works.
    expect((await slow).stdout).toBe('slow-done\n');
    expect(await sandbox.exec(['echo', 'still-open'])).toMatchObject({ exitCode: 0, stdout: 'still-open\n' });
  });
});
