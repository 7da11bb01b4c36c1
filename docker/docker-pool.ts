import { UserError } from '../core/errors.js';
import { dockerBackend } from './docker-backend.js';
import { dockerHostOptions, type EngineEndpoint, probeEndpoint } from './engine.js';
import type { DockerHost } from './hosts.js';
import { enginePool, type PoolMember, type PoolOptions } from './pool.js';
import type { SandboxBackend } from './types.js';

/** The connection to one pool engine: its own TLS settings over the environment's. */
function hostEndpoint(host: DockerHost, env: NodeJS.ProcessEnv = process.env): EngineEndpoint {
  const hostEnv = {
    ...env,
    ...(host.certPath !== undefined ? { DOCKER_CERT_PATH: host.certPath } : {}),
    ...(host.tlsVerify !== undefined ? { DOCKER_TLS_VERIFY: host.tlsVerify ? '1' : '' } : {}),
  };
  return { label: host.url, kind: 'host', options: dockerHostOptions(host.url, hostEnv) };
}

/** One Docker engine given by `--docker-host` / `dockerHosts`, as an engine of a pool: the Docker backend bound to it. */
export function dockerEngine(host: DockerHost): PoolMember {
  const endpoint = hostEndpoint(host);
  return {
    label: endpoint.label,
    capacity: host.capacity,
    backend: dockerBackend(endpoint),
    ping: (timeoutMs) => probeEndpoint(endpoint, timeoutMs),
  };
}

/** Several Docker engines as one pool (`pool.ts`), each given once. */
export function dockerEnginePool(hosts: DockerHost[], options: PoolOptions = {}): SandboxBackend {
  const members = hosts.map(dockerEngine);
  const labels = new Set<string>();
  for (const m of members) {
    if (labels.has(m.label)) throw new UserError(`--docker-host ${m.label} is given twice`, 'give each engine once, with its whole capacity');
    labels.add(m.label);
  }
  return enginePool(members, options);
}
