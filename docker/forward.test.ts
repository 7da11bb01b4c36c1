import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_IMAGE } from './images.js';
import { createSandbox } from './sandbox.js';
import { testRunId } from './testing.js';
import type { Sandbox } from './types.js';
import { AGENT_USER } from '../core/sandbox.js';

/**
 * A loopback port inside a sandbox with no network, carried by the command channel to a server on the host: what an
 * agent program uses to reach its model through the harness, and nothing else.
 */
const runId = testRunId('forward');
const PORT = 8377;
let sandbox: Sandbox;
let host: Server;
const seen: { method: string; url: string; bytes: number }[] = [];

beforeAll(async () => {
  // Answers with what it got: the method, the path and a digest of the body's length.
  host = createServer((req, res) => {
    let bytes = 0;
    const echo: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      bytes += c.length;
      echo.push(c);
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', bytes });
      const body = req.url === '/echo' ? Buffer.concat(echo) : Buffer.from(`${req.method} ${req.url} ${bytes}`);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  const target = (host.address() as AddressInfo).port;
  sandbox = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'forward' });
  await sandbox.forwardPort!(PORT, () => connect(target, '127.0.0.1'));
});
afterAll(async () => {
  await sandbox?.destroy();
  host?.close();
});

const CLIENT = `
import sys, urllib.request, hashlib
from concurrent.futures import ThreadPoolExecutor
base = "http://127.0.0.1:${PORT}"
def get(i):
    return urllib.request.urlopen(base + "/get/%d" % i, timeout=30).read().decode()
print(urllib.request.urlopen(urllib.request.Request(base + "/post", data=b"x" * 5, method="POST"), timeout=30).read().decode())
with ThreadPoolExecutor(8) as pool:
    print(",".join(pool.map(get, range(8))))
big = bytes(range(256)) * 8192
back = urllib.request.urlopen(urllib.request.Request(base + "/echo", data=big, method="POST"), timeout=60).read()
print(len(back), back == big)
`;

describe('a forwarded port', () => {
  it('carries requests and answers both ways, several at once and megabytes long, for the agent user', async () => {
    const r = await sandbox.exec(['python3', '-c', CLIENT], { user: AGENT_USER, timeoutMs: 60_000 });
    expect(r.stderr).toBe('');
    const [post, many, big] = r.stdout.trim().split('\n');
    expect(post).toBe('POST /post 5');
    expect(many!.split(',')).toEqual(Array.from({ length: 8 }, (_, i) => `GET /get/${i} 0`));
    expect(big).toBe(`${256 * 8192} True`);
    expect(seen.filter((s) => s.url === '/echo').map((s) => s.bytes)).toEqual([256 * 8192]);
  });

  it('leaves the sandbox without a network: other addresses and ports stay unreachable', async () => {
    const probe = `
import socket
for host, port in (("127.0.0.1", ${PORT + 1}), ("1.1.1.1", 443), ("172.17.0.1", 2375), ("8.8.8.8", 53)):
    s = socket.socket()
    s.settimeout(3)
    try:
        s.connect((host, port))
        print(host, port, "open")
    except OSError as e:
        print(host, port, "closed", type(e).__name__)
`;
    const r = await sandbox.exec(['python3', '-c', probe], { user: AGENT_USER, timeoutMs: 60_000 });
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(/ closed /);
  });

  it('closes a connection whose host side is gone, and keeps serving the next', async () => {
    const closing = await createSandbox({ image: PYTHON_IMAGE, runId, sampleId: 'forward-refused' });
    try {
      // Nothing listens on the host's end: each connection is refused there, so the sandbox's client sees it closed.
      await closing.forwardPort!(PORT, () => {
        const s = connect(1, '127.0.0.1');
        s.on('error', () => undefined);
        return s;
      });
      const r = await closing.exec(
        ['python3', '-c', `import socket\ns = socket.create_connection(("127.0.0.1", ${PORT}), 5)\ns.settimeout(10)\nprint(repr(s.recv(10)))`],
        { user: AGENT_USER, timeoutMs: 30_000 },
      );
      expect(r.stdout.trim()).toBe("b''");
      expect((await closing.exec(['echo', 'still-open'])).stdout).toBe('still-open\n');
    } finally {
      await closing.destroy();
    }
  });
});
