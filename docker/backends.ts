import { UserError } from '../core/errors.js';
import { engineTimeoutMs } from './deadline.js';
import { dockerBackend } from './docker-backend.js';
import { dockerEnginePool } from './docker-pool.js';
import type { DockerHost } from './hosts.js';
import type { PoolOptions } from './pool.js';
import type { SandboxBackend } from './types.js';

/** What wiring hands a backend's maker besides its name. */
export interface BackendSettings {
  /** Engines given by `--docker-host` / `dockerHosts`: a pool of them; only for backends that take engines. */
  hosts: DockerHost[];
  pool: PoolOptions;
}

/** Makes (or gives again: one per process and settings, so connections and bookkeeping are shared) a backend. */
export type BackendMaker = (settings: BackendSettings) => SandboxBackend;

interface Registered {
  make: BackendMaker;
  /** Whether it runs on engines given by `--docker-host` / `dockerHosts`. */
  takesHosts: boolean;
}

const registry = new Map<string, Registered>();

/** The names `--sandbox` and the config's `sandbox` take, kept current as backends are registered. */
export const SANDBOX_BACKENDS: readonly string[] = [];
export const DEFAULT_SANDBOX = 'docker';

/** Adds a backend under `name`; returns what takes it out again. */
export function registerSandboxBackend(name: string, make: BackendMaker, options: { takesHosts?: boolean } = {}): () => void {
  if (registry.has(name)) throw new Error(`a sandbox backend named "${name}" is registered already`);
  const entry = { make, takesHosts: options.takesHosts ?? false };
  registry.set(name, entry);
  (SANDBOX_BACKENDS as string[]).push(name);
  return () => {
    if (registry.get(name) !== entry) return;
    registry.delete(name);
    (SANDBOX_BACKENDS as string[]).splice(SANDBOX_BACKENDS.indexOf(name), 1);
  };
}

/** The backend registered under this name, made with these engines (a pool of them) where it takes engines. */
export function sandboxBackend(name: string = DEFAULT_SANDBOX, hosts: DockerHost[] = [], pool: PoolOptions = {}): SandboxBackend {
  const entry = registry.get(name);
  if (!entry) throw new UserError(`unknown sandbox backend "${name}"`, `use one of: ${SANDBOX_BACKENDS.join(', ')}`);
  if (hosts.length > 0 && !entry.takesHosts) {
    const takers = [...registry].filter(([, r]) => r.takesHosts).map(([n]) => n);
    throw new UserError(`--docker-host is for the ${takers.join(', ')} backend, not "${name}"`);
  }
  return entry.make({ hosts, pool });
}

const dockerMade = new Map<string, SandboxBackend>();

/** Docker: the one engine found as usual, or a pool of the engines given. */
function docker({ hosts, pool }: BackendSettings): SandboxBackend {
  engineTimeoutMs(); // a bad IMPOSSIBLEBENCH_ENGINE_TIMEOUT is said here, before any sample, not as an error of each
  const key = JSON.stringify(hosts);
  let backend = dockerMade.get(key);
  if (!backend) dockerMade.set(key, (backend = hosts.length > 0 ? dockerEnginePool(hosts, pool) : dockerBackend()));
  return backend;
}

registerSandboxBackend('docker', docker, { takesHosts: true });
