import { UserError } from '../core/errors.js';
import { engineTimeoutMs } from './deadline.js';
import { dockerBackend } from './docker-backend.js';
import type { DockerHost } from './hosts.js';
import { enginePool, type PoolOptions } from './pool.js';
import type { SandboxBackend } from './types.js';

/** Every backend by the name `--sandbox` and the config's `sandbox` take. */
const BACKENDS: Record<string, () => SandboxBackend> = {
  docker: dockerBackend,
};

export const SANDBOX_BACKENDS = Object.keys(BACKENDS);
export const DEFAULT_SANDBOX = 'docker';

const made = new Map<string, SandboxBackend>();

/**
 * The backend of this name (one per process, so its connection and bookkeeping are shared). Docker engines given by
 * `--docker-host` / `dockerHosts` make it a pool of those engines instead of the one engine found as usual.
 */
export function sandboxBackend(name: string = DEFAULT_SANDBOX, hosts: DockerHost[] = [], pool: PoolOptions = {}): SandboxBackend {
  const make = Object.hasOwn(BACKENDS, name) ? BACKENDS[name] : undefined;
  if (!make) throw new UserError(`unknown sandbox backend "${name}"`, `use one of: ${SANDBOX_BACKENDS.join(', ')}`);
  if (hosts.length > 0 && name !== 'docker') throw new UserError(`--docker-host is for the docker backend, not "${name}"`);
  engineTimeoutMs(); // a bad IMPOSSIBLEBENCH_ENGINE_TIMEOUT is said here, before any sample, not as an error of each
  const key = hosts.length > 0 ? `${name} ${JSON.stringify(hosts)}` : name;
  let backend = made.get(key);
  if (!backend) made.set(key, (backend = hosts.length > 0 ? enginePool(hosts, pool) : make()));
  return backend;
}
