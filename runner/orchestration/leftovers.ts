import type { SandboxBackend } from '../../docker/types.js';
import type { ResultStore } from '../../results/store.js';
import type { Logger } from 'pino';
import { lockHolder } from './lock.js';
import type { Wiring } from '../wiring/wiring.js';

/**
 * Removes every sandbox of this run id, running or not: what a killed process of the same run
 * left behind.
 */
export async function removeRunContainers(backend: SandboxBackend, runId: string): Promise<number> {
  return (await backend.cleanup({ runId })).removed.length;
}

/**
 * Removes the sandboxes and history images of this store's other runs that no live process owns: runs that ended,
 * and runs still marked running whose process is gone (killed). Runs of other stores, or live ones, are never
 * touched; `impossiblebench cleanup` removes everything. Returns how many sandboxes went.
 */
export async function removeStaleLeftovers(backend: SandboxBackend, store: ResultStore, except?: string): Promise<number> {
  const isStale = staleRuns(store, except);
  const stale = (await backend.list()).filter((c) => isStale(c.runId));
  const removed = stale.length ? (await backend.remove(stale)).removed.length : 0;
  const images = ((await backend.images.listDerived?.()) ?? []).filter((i) => isStale(i.runId));
  if (images.length) await backend.images.removeDerived?.(images.map((i) => i.name));
  return removed;
}

/** Whether a run id is one of this store's runs that no live process owns (each run asked once). */
function staleRuns(store: ResultStore, except?: string): (runId: string) => boolean {
  const verdict = new Map<string, boolean>();
  return (runId) => {
    if (!runId || runId === except) return false;
    if (!verdict.has(runId)) {
      const run = store.findRun(runId);
      verdict.set(runId, run !== undefined && (run.status !== 'running' || lockHolder(store.path, runId) === undefined));
    }
    return verdict.get(runId)!;
  };
}

/**
 * Removes, once at the start of a run, what earlier processes left: this run's sandboxes (a killed process of it)
 * and those of the store's stale runs. Said, logged, and recorded with the run.
 */
export async function clearLeftovers(
  wiring: Pick<Wiring, 'removeLeftovers'>,
  store: ResultStore,
  runId: string,
  out: { say: (line: string) => void; log: Logger },
): Promise<void> {
  const { stale, ofRun } = await wiring.removeLeftovers(store, runId);
  const containers = (n: number) => `${n} container${n === 1 ? '' : 's'}`;
  if (stale > 0) out.say(`removed ${containers(stale)} left by earlier runs of this store`);
  if (ofRun > 0) {
    out.say(`removed ${containers(ofRun)} left by an earlier process of run ${runId}`);
    out.log.info({ removed: ofRun }, 'removed containers left by an earlier process of this run');
    store.addEvent(runId, 'leftovers_removed', { containers: ofRun });
  }
}
