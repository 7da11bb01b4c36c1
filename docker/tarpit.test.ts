import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_USER, ROOT_USER } from '../core/sandbox.js';
import { UserError } from '../core/errors.js';
import { getDocker } from './engine.js';
import { createSandbox } from './sandbox.js';
import { PYTHON_IMAGE } from './images.js';
import { testRunId, withSandbox } from './testing.js';

const runId = testRunId('tarpit');

/** Connects with a timeout and prints how it ended: `timeout`, or the error's name. */
const CONNECT = (address: string, port: number) => `
import socket, sys
s = socket.socket()
s.settimeout(1.0)
try:
    s.connect((${JSON.stringify(address)}, ${port}))
    print("connected")
except socket.timeout:
    print("timeout")
except OSError as e:
    print(type(e).__name__, e.errno)
`;

let listener: Server;
let hostPort: number;

beforeAll(async () => {
  // A host service open to every interface: what a sandbox with any route out could reach.
  listener = createServer((c) => c.end('hello\n'));
  await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
  hostPort = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
});

describe('a tarpit address in a sandbox with no network', () => {
  it('hangs a connection to it until the timeout, as the internet does, while every other address fails at once', async () => {
    await withSandbox(
      runId,
      async (sandbox) => {
        const tarpit = await sandbox.exec(['python3', '-c', CONNECT('10.255.255.1', 80)], { user: AGENT_USER });
        expect(tarpit.stdout.trim()).toBe('timeout');
        // The host's own addresses, the bridge and the outside stay unreachable: still no network.
        const bridge = (await (await getDocker()).getNetwork('bridge').inspect()) as { IPAM: { Config: { Gateway?: string }[] } };
        for (const address of [bridge.IPAM.Config[0]?.Gateway ?? '172.17.0.1', '10.255.255.2', '192.0.2.1']) {
          const r = await sandbox.exec(['python3', '-c', CONNECT(address, hostPort)], { user: AGENT_USER });
          expect(r.stdout.trim(), address).toMatch(/^OSError 101$|^ConnectionRefusedError|^OSError 113$/);
        }
        const links = await sandbox.exec(['ls', '/sys/class/net']);
        expect(links.stdout.split(/\s+/).filter(Boolean)).toEqual(['lo']);
      },
      { sampleId: 'tarpit', tarpits: ['10.255.255.1'] },
    );
  });

  it('cannot be undone or widened from inside: neither the agent nor root holds NET_ADMIN', async () => {
    await withSandbox(
      runId,
      async (sandbox) => {
        const script = `
import socket, struct
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.bind((0, 0))
body = struct.pack("BBBBBBBBI", socket.AF_INET, 0, 0, 0, 254, 4, 0, 1, 0)
s.send(struct.pack("IHHII", 16 + len(body), 24, 0x1 | 0x4 | 0x400, 1, 0) + body)
print(struct.unpack("i", s.recv(4096)[16:20])[0])
`;
        for (const user of [AGENT_USER, ROOT_USER]) {
          const r = await sandbox.exec(['python3', '-c', script], { user });
          // -EPERM: adding a default route is refused.
          expect(r.stdout.trim(), user).toBe('-1');
        }
        const routes = await sandbox.exec(['cat', '/proc/net/route']);
        expect(routes.stdout).toMatch(/^lo\s+01FFFF0A\s/m);
      },
      { sampleId: 'locked', tarpits: ['10.255.255.1'] },
    );
  });

  it('leaves no helper container behind, and refuses an address that is not IPv4', async () => {
    const docker = await getDocker();
    const left = await docker.listContainers({ all: true, filters: { label: [`impossiblebench.run=${runId}`] } });
    expect(left.filter((c) => c.Labels['impossiblebench.sample']?.endsWith('/tarpit'))).toEqual([]);
    await expect(createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'bad', tarpits: ['example.com'] })).rejects.toThrow(UserError);
  });
});
