import { UserError } from '../runner/errors.js';
import { dockerBackend } from './docker-backend.js';
import type { SandboxBackend } from './types.js';

/** Every backend by the name `--sandbox` and the config's `sandbox` take. */
const BACKENDS: Record<string, () => SandboxBackend> = {
  docker: dockerBackend,
};

export const SANDBOX_BACKENDS = Object.keys(BACKENDS);
export const DEFAULT_SANDBOX = 'docker';

const made = new Map<string, SandboxBackend>();

/** The backend of this name (one per process, so its connection and bookkeeping are shared). */
export function sandboxBackend(name: string = DEFAULT_SANDBOX): SandboxBackend {
  const make = Object.hasOwn(BACKENDS, name) ? BACKENDS[name] : undefined;
  if (!make) throw new UserError(`unknown sandbox backend "${name}"`, `use one of: ${SANDBOX_BACKENDS.join(', ')}`);
  let backend = made.get(name);
  if (!backend) made.set(name, (backend = make()));
  return backend;
}
