import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_USER, ROOT_USER } from '../../core/sandbox.js';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { sandboxBackend } from '../../docker/backends.js';
import { testRunId } from '../../docker/testing.js';
import type { Sandbox } from '../../docker/types.js';
import { PriceTable } from '../../models/prices.js';
import { BASH, CONTEXT, echoPolicy } from '../testing/echo.js';
import { useModelServer } from '../testing/model-server.js';
import { RecordingProxy } from '../../scaffolds/agent-cli/proxy.js';
import { codexBinary } from '../../scaffolds/agent-cli/testing/cli-binaries.js';

/**
 * What an agent program in a sandbox can reach: a sandbox made as a CLI sample's (no network, the default limits, the
 * program's binary shown read-only), its proxy forwarded in on one loopback port. Only the proxy's model route, with
 * the sample's own key, gets through; the internet, the host, the engine and the provider stay out of reach, for the
 * agent user and for root. Each probe has a control beside it (the forwarded port, the real key) so it can fail.
 */
const runId = testRunId('sandbox-reach');
const PORT = 8377;
const server = useModelServer();
let sandbox: Sandbox;
let proxy: RecordingProxy;
let token: string;

beforeAll(async () => {
  token = server.openSession(echoPolicy(), CONTEXT);
  proxy = new RecordingProxy({
    api: 'openai-responses',
    upstream: server.openaiBaseUrl,
    apiKey: token,
    model: 'openai/gpt-5-codex',
    prices: new PriceTable(),
    limits: {},
  });
  await proxy.start();
  const readOnlyFiles = [{ source: codexBinary(), target: '/opt/agent/bin/codex' }];
  sandbox = await sandboxBackend().create({ image: PYTHON_IMAGE, runId, sampleId: 'reach', readOnlyFiles });
  await sandbox.forwardPort!(PORT, proxy.connect);
});
afterAll(async () => {
  await sandbox?.destroy();
  await proxy?.close();
});

/** The host's own addresses (its LAN address, the engine's bridge gateway, ...): none may be reached from inside. */
function hostAddresses(): string[] {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []);
  return [...new Set(['172.17.0.1', ...all.filter((a) => !a.internal && a.family === 'IPv4').map((a) => a.address)])];
}

/**
 * Tries every way out and prints one JSON line per probe: `ok` true means it got through. TCP connects, a UDP DNS
 * query that must be answered, a name lookup, the engine's sockets, and the gateways /proc/net/route lists.
 */
const PROBE = `
import json, os, socket, struct, sys
hosts, ports, forwarded, host_loopback_ports = json.loads(sys.argv[1])
def report(kind, target, ok, why=""):
    print(json.dumps({"kind": kind, "target": target, "ok": ok, "why": why}), flush=True)
def tcp(host, port, kind):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(3)
    try:
        s.connect((host, port))
        report(kind, "%s:%d" % (host, port), True)
    except OSError as e:
        report(kind, "%s:%d" % (host, port), False, type(e).__name__)
    finally:
        s.close()
def route_gateways():
    found = []
    with open("/proc/net/route") as f:
        for line in f.readlines()[1:]:
            cols = line.split()
            if len(cols) > 3 and int(cols[3], 16) & 2:
                found.append(socket.inet_ntoa(struct.pack("<L", int(cols[2], 16))))
    return found
tcp("127.0.0.1", forwarded, "control")
for host in ("1.1.1.1", "8.8.8.8", "93.184.216.34", "2606:4700:4700::1111"):
    for port in (53, 80, 443):
        tcp(host, port, "external")
query = b"\\x12\\x34\\x01\\x00\\x00\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x07example\\x03com\\x00\\x00\\x01\\x00\\x01"
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.settimeout(3)
try:
    u.sendto(query, ("8.8.8.8", 53))
    u.recvfrom(512)
    report("external", "udp 8.8.8.8:53", True)
except OSError as e:
    report("external", "udp 8.8.8.8:53", False, type(e).__name__)
try:
    report("dns", "example.com", True, repr(socket.getaddrinfo("example.com", 443)))
except OSError as e:
    report("dns", "example.com", False, type(e).__name__)
gateways = route_gateways()
report("route", "gateways", bool(gateways), ",".join(gateways))
for host in sorted(set(hosts + gateways)):
    for port in ports:
        tcp(host, port, "host")
for port in host_loopback_ports:
    tcp("127.0.0.1", port, "host-loopback")
    tcp("::1", port, "host-loopback")
for path in ("/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock", "/var/run/docker/containerd/containerd.sock"):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        report("engine", path, True)
    except OSError as e:
        report("engine", path, os.path.exists(path), type(e).__name__)
with open("/proc/self/mountinfo") as f:
    mounts = [l.split()[4] for l in f if "docker.sock" in l or "containerd" in l]
report("engine", "mounts", bool(mounts), ",".join(mounts))
report("interfaces", ",".join(sorted(os.listdir("/sys/class/net"))), sorted(os.listdir("/sys/class/net")) != ["lo"])
`;

interface Probe {
  kind: string;
  target: string;
  ok: boolean;
  why: string;
}

async function probe(user: string): Promise<Probe[]> {
  const hostPorts = [22, 53, 80, 443, 2375, 2376, 3000, 8080, proxy.port, Number(new URL(server.url).port)];
  const loopbackPorts = [proxy.port, Number(new URL(server.url).port)].filter((p) => p !== PORT);
  const args = JSON.stringify([hostAddresses(), hostPorts, PORT, loopbackPorts]);
  const r = await sandbox.exec(['python3', '-c', PROBE, args], { user, timeoutMs: 300_000 });
  expect(r.stderr).toBe('');
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Probe);
}

describe.each([AGENT_USER, ROOT_USER])('a CLI sample sandbox, as %s', (user) => {
  let probes: Probe[];
  beforeAll(async () => {
    probes = await probe(user);
  });
  const through = (kind: string) => probes.filter((p) => p.kind === kind && p.ok).map((p) => `${p.target} (${p.why})`);

  it('reaches the forwarded proxy port (the control: a probe sees an open port)', () => {
    expect(probes.filter((p) => p.kind === 'control')).toEqual([expect.objectContaining({ ok: true })]);
  });

  it('reaches no external address over TCP or UDP, and resolves no name', () => {
    expect(probes.filter((p) => p.kind === 'external')).toHaveLength(13);
    expect(through('external')).toEqual([]);
    expect(probes.find((p) => p.kind === 'dns')).toMatchObject({ ok: false });
  });

  it('has no route and no interface but loopback, and reaches none of the host`s addresses on any port', () => {
    expect(probes.find((p) => p.kind === 'route')).toMatchObject({ ok: false, why: '' });
    expect(probes.find((p) => p.kind === 'interfaces')).toMatchObject({ target: 'lo', ok: false });
    expect(probes.filter((p) => p.kind === 'host').length).toBeGreaterThanOrEqual(hostAddresses().length * 10);
    expect(through('host')).toEqual([]);
    // The proxy and the provider listen on the host's loopback, which is not the sandbox's.
    expect(through('host-loopback')).toEqual([]);
  });

  it('finds no engine socket, by path or by mount, and cannot connect to one', () => {
    expect(probes.filter((p) => p.kind === 'engine')).toHaveLength(5);
    expect(through('engine')).toEqual([]);
  });
});

/** An HTTP request from inside the sandbox as the agent user; prints the status, and the body's start. */
async function requestFromInside(path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: string }> {
  const script = `
import json, sys, urllib.request, urllib.error
path, headers, body = json.loads(sys.argv[1])
data = None if body is None else json.dumps(body).encode()
req = urllib.request.Request("http://127.0.0.1:${PORT}" + path, data=data, headers=headers, method="GET" if data is None else "POST")
try:
    with urllib.request.urlopen(req, timeout=60) as r:
        print(r.status); print(r.read().decode()[:200000])
except urllib.error.HTTPError as e:
    print(e.code); print(e.read().decode()[:200000])
`;
  const r = await sandbox.exec(['python3', '-c', script, JSON.stringify([path, headers, body ?? null])], { user: AGENT_USER, timeoutMs: 120_000 });
  expect(r.stderr).toBe('');
  const [status, ...rest] = r.stdout.split('\n');
  return { status: Number(status), body: rest.join('\n') };
}

/** Raw HTTP requests from inside the sandbox as the agent user, each on its own connection: each answer's first line. */
async function rawFromInside(requests: string[]): Promise<string[]> {
  const script = `
import json, socket, sys
for raw in json.loads(sys.argv[1]):
    s = socket.create_connection(("127.0.0.1", ${PORT}), 30)
    s.settimeout(30)
    s.sendall(raw.encode())
    got = b""
    try:
        while b"\\r\\n" not in got:
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
    except OSError:
        pass
    s.close()
    print(json.dumps(got.split(b"\\r\\n")[0].decode(errors="replace")))
`;
  const r = await sandbox.exec(['python3', '-c', script, JSON.stringify(requests)], { user: AGENT_USER, timeoutMs: 120_000 });
  expect(r.stderr).toBe('');
  return r.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as string);
}

describe('the proxy, seen from inside the sandbox', () => {
  const json = { 'content-type': 'application/json' };
  const turn = { model: 'gpt-5-codex', input: 'Print hi.', tools: [{ type: 'function', name: 'bash', parameters: BASH.parameters }], store: false };

  it('refuses a forged key, no key and every route but the model`s; the provider sees none of them', async () => {
    const attempts: [string, Record<string, string>, unknown, number][] = [
      ['/v1/responses', { ...json, authorization: 'Bearer sk-forged' }, turn, 401],
      // The sample's key with its last character changed (to another one: a key may end in 0 itself).
      ['/v1/responses', { ...json, authorization: `Bearer ${proxy.agentKey.slice(0, -1)}${proxy.agentKey.endsWith('0') ? '1' : '0'}` }, turn, 401],
      ['/v1/responses', { ...json, 'x-api-key': 'sk-forged' }, turn, 401],
      ['/v1/responses', json, turn, 401],
      ['/v1/models', { authorization: `Bearer ${proxy.agentKey}` }, undefined, 404],
      ['/v1/files', { ...json, authorization: `Bearer ${proxy.agentKey}` }, {}, 404],
      ['/v1/chat/completions', { ...json, authorization: `Bearer ${proxy.agentKey}` }, { model: 'gpt-4o', messages: [] }, 404],
      ['/v1/responses/../files', { ...json, authorization: `Bearer ${proxy.agentKey}` }, {}, 404],
      ['/v1/messages', { ...json, 'x-api-key': proxy.agentKey }, { model: 'claude-sonnet-4-6', messages: [] }, 404],
    ];
    const statuses: number[] = [];
    for (const [path, headers, body] of attempts) statuses.push((await requestFromInside(path, headers, body)).status);
    expect(statuses).toEqual(attempts.map((a) => a[3]));
    expect(server.sessionStats(token)?.requests).toBe(0);
    expect(proxy.exchanges).toEqual([]);
    expect(proxy.refused).toHaveLength(attempts.length);
  });

  it('forwards the sample`s own key on the model route, and records the exchange (the control)', async () => {
    const before = server.sessionStats(token)?.requests ?? 0;
    const reply = await requestFromInside('/v1/responses', { ...json, authorization: `Bearer ${proxy.agentKey}` }, turn);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ object: 'response', status: 'completed' });
    expect(server.sessionStats(token)?.requests).toBe(before + 1);
    expect(proxy.exchanges.map((e) => `${e.path} ${e.status}`)).toEqual(['/v1/responses 200']);
  });

  it('is no open proxy: CONNECT and absolute URLs to other hosts reach nothing but the provider the harness chose', async () => {
    const before = server.sessionStats(token)?.requests ?? 0;
    const auth = `Authorization: Bearer ${proxy.agentKey}`;
    const body = JSON.stringify(turn);
    const raw = [
      `CONNECT 1.1.1.1:443 HTTP/1.1\r\nHost: 1.1.1.1:443\r\n${auth}\r\n\r\n`,
      `GET http://169.254.169.254/latest/meta-data/ HTTP/1.1\r\nHost: 169.254.169.254\r\n${auth}\r\nConnection: close\r\n\r\n`,
    ];
    const firstLines = await rawFromInside(raw);
    expect(firstLines[0]).not.toMatch(/^HTTP\/1\.1 2/);
    expect(firstLines[1]).toMatch(/^HTTP\/1\.1 404/);
    expect(server.sessionStats(token)?.requests).toBe(before);
    // The model route under another host's name still goes only to the configured provider.
    const [elsewhere] = await rawFromInside([
      `POST http://1.1.1.1/v1/responses HTTP/1.1\r\nHost: 1.1.1.1\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    ]);
    expect(elsewhere).toMatch(/^HTTP\/1\.1 200/);
    expect(server.sessionStats(token)?.requests).toBe(before + 1);
  });

  it('holds the program`s binary read-only, runnable by the agent user', async () => {
    const r = await sandbox.exec(['/opt/agent/bin/codex', '--version'], { user: AGENT_USER });
    expect(r.stdout).toMatch(/codex/i);
    const write = await sandbox.exec('echo x >> /opt/agent/bin/codex; echo $?', { user: AGENT_USER });
    expect(write.stdout.trim()).not.toBe('0');
  });
});
