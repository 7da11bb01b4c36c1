import type { SandboxBackend } from '../docker/types.js';
import type { ResultStore } from '../results/store.js';
import { lockHolder } from './lock.js';

/**
 * Removes every sandbox of this run id, running or not: what a killed process of the same run
 * left behind.
 */
export async function removeRunContainers(backend: SandboxBackend, runId: string): Promise<number> {
  return (await backend.cleanup({ runId })).removed.length;
}

/**
 * Removes the sandboxes of this store's other runs that no live process owns: runs that ended,
 * and runs still marked running whose process is gone (killed). Runs of other stores, or live
 * ones, are never touched; `impossiblebench cleanup` removes everything.
 */
export async function removeStaleContainers(backend: SandboxBackend, store: ResultStore, except?: string): Promise<number> {
  const stale = [];
  const verdict = new Map<string, boolean>();
  for (const c of await backend.list()) {
    if (!c.runId || c.runId === except) continue;
    if (!verdict.has(c.runId)) {
      const run = store.findRun(c.runId);
      verdict.set(c.runId, run !== undefined && (run.status !== 'running' || lockHolder(store.path, c.runId) === undefined));
    }
    if (verdict.get(c.runId)) stale.push(c);
  }
  return stale.length ? (await backend.remove(stale)).removed.length : 0;
}
