import Docker from 'dockerode';
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import { engineMessage } from './errors.js';

/** One place a container engine may listen. */
export interface EngineEndpoint {
  /** What the user would recognise: `DOCKER_HOST=tcp://…`, `/var/run/docker.sock`, … */
  label: string;
  kind: 'DOCKER_HOST' | 'docker' | 'podman' | 'host';
  options: Docker.DockerOptions;
}

export interface EngineInfo {
  endpoint: EngineEndpoint;
  /** `Docker Engine - Community`, `Podman Engine`, … as the engine names itself. */
  product: string;
  version: string;
  apiVersion: string;
}

export interface ProbeResult {
  endpoint: EngineEndpoint;
  ok: boolean;
  info?: EngineInfo;
  /** Why it did not answer, one line. */
  error?: string;
}

/** The fix printed when no engine answers; the script handles fresh Debian machines as root. */
export const ENGINE_FIX = 'bash scripts/setup-docker.sh (as root on Debian/Ubuntu), or start Docker Desktop / `systemctl start docker`';

const PROBE_TIMEOUT_MS = 5_000;

function isSocket(path: string): boolean {
  try {
    return statSync(path).isSocket();
  } catch {
    return false;
  }
}

/**
 * Where to look for an engine, in order. An explicit DOCKER_HOST is the only candidate when set:
 * silently using another engine than the one the user named would be worse than failing.
 */
export function candidateEndpoints(env: NodeJS.ProcessEnv = process.env): EngineEndpoint[] {
  const host = env.DOCKER_HOST?.trim();
  if (host) return [{ label: `DOCKER_HOST=${host}`, kind: 'DOCKER_HOST', options: dockerHostOptions(host, env) }];
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const runtimeDir = env.XDG_RUNTIME_DIR ?? (uid !== undefined ? `/run/user/${uid}` : undefined);
  const docker = ['/var/run/docker.sock', runtimeDir && join(runtimeDir, 'docker.sock'), join(homedir(), '.docker/run/docker.sock')];
  const podman = [runtimeDir && join(runtimeDir, 'podman/podman.sock'), '/run/podman/podman.sock'];
  const seen = new Set<string>();
  const endpoints: EngineEndpoint[] = [];
  for (const [kind, paths] of [
    ['docker', docker],
    ['podman', podman],
  ] as const) {
    for (const path of paths) {
      if (!path || seen.has(path)) continue;
      seen.add(path);
      endpoints.push({ label: path, kind, options: { socketPath: path } });
    }
  }
  return endpoints;
}

/**
 * Connection options for a DOCKER_HOST value (unix://, npipe://, tcp://, ssh://, with the TLS
 * variables), read from the given environment rather than the process's own.
 */
export function dockerHostOptions(host: string, env: NodeJS.ProcessEnv): Docker.DockerOptions {
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) || '/var/run/docker.sock' };
  if (host.startsWith('npipe://')) return { socketPath: host.slice('npipe://'.length) || '//./pipe/docker_engine' };
  let url: URL;
  try {
    url = new URL(host.includes('//') ? host : `tcp://${host}`);
  } catch {
    throw new UserError(
      `DOCKER_HOST=${host} is not an engine address`,
      'set DOCKER_HOST to something like unix:///var/run/docker.sock or tcp://HOST:2375, or unset it',
    );
  }
  if (url.protocol === 'ssh:') {
    return {
      protocol: 'ssh',
      host: url.hostname,
      port: url.port || 22,
      username: url.username || undefined,
      sshOptions: { agent: env.SSH_AUTH_SOCK },
    };
  }
  const tls = env.DOCKER_TLS_VERIFY === '1' || url.port === '2376';
  const options: Docker.DockerOptions = { protocol: tls ? 'https' : 'http', host: url.hostname, port: url.port || (tls ? 2376 : 2375) };
  const certs = env.DOCKER_CERT_PATH;
  if (certs) {
    try {
      options.ca = readFileSync(join(certs, 'ca.pem'));
      options.cert = readFileSync(join(certs, 'cert.pem'));
      options.key = readFileSync(join(certs, 'key.pem'));
    } catch (err) {
      throw new UserError(
        `cannot read the TLS certificates in DOCKER_CERT_PATH=${certs}: ${(err as Error).message}`,
        'point DOCKER_CERT_PATH at the folder holding ca.pem, cert.pem and key.pem',
      );
    }
  }
  return options;
}

function clientFor(endpoint: EngineEndpoint, timeoutMs?: number): Docker {
  return new Docker(timeoutMs ? { ...endpoint.options, timeout: timeoutMs } : endpoint.options);
}

/** Asks one endpoint for its version, within a few seconds. Never throws. */
export async function probeEndpoint(endpoint: EngineEndpoint, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  if (endpoint.options.socketPath && !existsSync(endpoint.options.socketPath)) {
    return { endpoint, ok: false, error: 'no socket there' };
  }
  if (endpoint.options.socketPath && !isSocket(endpoint.options.socketPath)) {
    return { endpoint, ok: false, error: 'the path exists but is not a socket' };
  }
  try {
    const client = clientFor(endpoint, timeoutMs);
    const v = await client.version();
    const product = v.Components?.find((c) => c.Name === 'Engine' || c.Name === 'Podman Engine')?.Name;
    return {
      endpoint,
      ok: true,
      info: {
        endpoint,
        product: product === 'Podman Engine' ? 'Podman' : 'Docker',
        version: v.Version,
        apiVersion: v.ApiVersion,
      },
    };
  } catch (err) {
    return { endpoint, ok: false, error: describeConnectError(err) };
  }
}

function describeConnectError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOENT') return 'no socket there';
  if (code === 'EACCES') return 'permission denied (is your user in the docker group?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name does not resolve';
  if (code === 'ETIMEDOUT' || /timeout/i.test(engineMessage(err))) return 'no answer (timed out)';
  return engineMessage(err).split('\n')[0] ?? 'unknown error';
}

/** Probes every candidate in order and stops at the first that answers. */
export async function findEngine(env: NodeJS.ProcessEnv = process.env): Promise<{ found?: EngineInfo; tried: ProbeResult[] }> {
  const tried: ProbeResult[] = [];
  // Inside `withEngine` the given engine is the only candidate.
  const given = scope.getStore();
  for (const endpoint of given ? [given] : candidateEndpoints(env)) {
    const result = await probeEndpoint(endpoint);
    tried.push(result);
    if (result.ok && result.info) return { found: result.info, tried };
  }
  return { found: undefined, tried };
}

/** The one-line error (plus fix) for "no engine answers". */
export function noEngineError(tried: ProbeResult[]): UserError {
  const first = tried[0];
  if (first?.endpoint.kind === 'host') {
    return new UserError(
      `no container engine answers at ${first.endpoint.label} (${first.error ?? 'unknown error'})`,
      'start that engine, or leave it out of --docker-host / `dockerHosts`',
    );
  }
  if (first?.endpoint.kind === 'DOCKER_HOST') {
    return new UserError(
      `no container engine answers at ${first.endpoint.label} (${first.error ?? 'unknown error'})`,
      'start the engine DOCKER_HOST points to, or `unset DOCKER_HOST` to use the local Docker socket',
    );
  }
  const detail = tried
    .filter((t) => t.error !== 'no socket there')
    .map((t) => `${t.endpoint.label}: ${t.error}`)
    .join('; ');
  return new UserError(`no container engine answers${detail ? ` (${detail})` : ' (no Docker or Podman socket found)'}`, ENGINE_FIX);
}

interface Connection {
  docker: Docker;
  info: EngineInfo;
}

let connection: Promise<Connection> | undefined;

/** The engine the calls inside `withEngine` use instead of the one found as usual (one of a pool's engines). */
const scope = new AsyncLocalStorage<EngineEndpoint>();
const scoped = new Map<string, Promise<Connection>>();

/**
 * Runs `fn` against one given engine: every engine call made inside it (creating a sandbox, listing, images) goes
 * there. A sandbox keeps the engine it was created on, so its later calls need no scope.
 */
export function withEngine<T>(endpoint: EngineEndpoint, fn: () => T): T {
  return scope.run(endpoint, fn);
}

function connectScoped(endpoint: EngineEndpoint): Promise<Connection> {
  let c = scoped.get(endpoint.label);
  if (!c) {
    c = (async () => {
      const probe = await probeEndpoint(endpoint);
      if (!probe.ok || !probe.info) throw noEngineError([probe]);
      return { docker: clientFor(endpoint), info: probe.info };
    })();
    scoped.set(endpoint.label, c);
    c.catch(() => scoped.delete(endpoint.label));
  }
  return c;
}

/**
 * The one shared engine connection of this process, found on first use. Sockets are reused across
 * sandboxes; a failure is not cached, so a later call retries (e.g. after the user starts Docker).
 */
export function connectEngine(): Promise<Connection> {
  const endpoint = scope.getStore();
  if (endpoint) return connectScoped(endpoint);
  connection ??= (async () => {
    const { found, tried } = await findEngine();
    if (!found) throw noEngineError(tried);
    return { docker: clientFor(found.endpoint), info: found };
  })().catch((err: unknown) => {
    connection = undefined;
    throw err;
  });
  return connection;
}

/** The shared dockerode client. */
export async function getDocker(): Promise<Docker> {
  return (await connectEngine()).docker;
}
