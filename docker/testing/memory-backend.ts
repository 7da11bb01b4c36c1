import { UserError } from '../../core/errors.js';
import { registerSandboxBackend } from '../backends.js';
import type { RemoveResult, SandboxBackend, SandboxInfo, SandboxOptions } from '../types.js';
import { MemorySandbox, type MemorySandboxOptions } from './memory-sandbox.js';

export { hangUntilKilled, MemorySandbox } from './memory-sandbox.js';
export type { CommandHandler, CommandReply, CommandRoute, MemoryCommand, MemoryFile } from './memory-sandbox.js';

/** The name tests register it under: never a `--sandbox` choice, since only tests register it. */
export const MEMORY_SANDBOX = 'memory';

/** A backend of in-process sandboxes (`memory-sandbox.ts`); every sandbox gets these image files, users and routes. */
export type MemoryBackendOptions = Omit<MemorySandboxOptions, 'id' | 'workdir' | 'env'>;

export interface MemoryBackend extends SandboxBackend {
  create(options: SandboxOptions): Promise<MemorySandbox>;
  /** Every sandbox made, destroyed or not, in order. */
  readonly made: MemorySandbox[];
}

export function memoryBackend(options: MemoryBackendOptions = {}): MemoryBackend {
  const made: MemorySandbox[] = [];
  const labels = new Map<MemorySandbox, { runId: string; sampleId: string; created: Date }>();
  const info = (s: MemorySandbox): SandboxInfo => ({ id: s.id, state: s.isDestroyed ? 'removed' : 'running', ...labels.get(s)! });
  const live = (filter: { runId?: string } = {}) => made.filter((s) => !s.isDestroyed && (!filter.runId || labels.get(s)!.runId === filter.runId));
  const removeAll = async (sandboxes: MemorySandbox[]): Promise<RemoveResult> => {
    await Promise.all(sandboxes.map((s) => s.destroy()));
    return { removed: sandboxes.map(info), failed: [] };
  };
  return {
    name: MEMORY_SANDBOX,
    made,
    async create(o: SandboxOptions) {
      const sandbox = new MemorySandbox({ ...options, ...(o.workdir ? { workdir: o.workdir } : {}), ...(o.env ? { env: o.env } : {}) });
      labels.set(sandbox, { runId: o.runId, sampleId: o.sampleId, created: new Date() });
      made.push(sandbox);
      return sandbox;
    },
    list: async (filter) => live(filter).map(info),
    remove: (sandboxes) => removeAll(made.filter((s) => sandboxes.some((i) => i.id === s.id))),
    cleanup: (filter = {}) => removeAll(live(filter).filter((s) => !filter.olderThan || labels.get(s)!.created < filter.olderThan!)),
    connect: async () => undefined,
    probe: async () => [{ mark: 'ok', text: 'in-process sandboxes (tests only)' }],
    destroyAll: async () => void (await removeAll(live())),
    images: {
      status: async (name) => ({ name, state: 'present' }),
      missing: async () => [],
      pull: async () => undefined,
      build: async () => {
        throw new UserError('in-process sandboxes have no images to build');
      },
      list: async () => [],
      freeSpace: async () => undefined,
    },
  };
}

/** Registers a memory backend under MEMORY_SANDBOX for a test; returns it and what takes it out again. */
export function registerMemoryBackend(options: MemoryBackendOptions = {}): { backend: MemoryBackend; unregister: () => void } {
  const backend = memoryBackend(options);
  return { backend, unregister: registerSandboxBackend(MEMORY_SANDBOX, () => backend) };
}
