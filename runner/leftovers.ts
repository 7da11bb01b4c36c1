import { getDocker } from '../docker/engine.js';
import { RUN_LABEL } from '../docker/labels.js';
import type { ResultStore } from '../results/store.js';
import { lockHolder } from './lock.js';

async function removeAll(ids: string[]): Promise<number> {
  const docker = await getDocker();
  const results = await Promise.allSettled(ids.map((id) => docker.getContainer(id).remove({ force: true, v: true })));
  // A container that vanished in between (404) is as good as removed.
  return results.filter((r) => r.status === 'fulfilled' || (r.reason as { statusCode?: number }).statusCode === 404).length;
}

/**
 * Removes every container labelled with this run id, running or not: what a killed process of
 * the same run left behind.
 */
export async function removeRunContainers(runId: string): Promise<number> {
  const docker = await getDocker();
  const containers = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] } });
  return removeAll(containers.map((c) => c.Id));
}

/**
 * Removes the containers of this store's other runs that no live process owns: runs that ended,
 * and runs still marked running whose process is gone (killed). Runs of other stores, or live
 * ones, are never touched; `impossiblebench cleanup` removes everything.
 */
export async function removeStaleContainers(store: ResultStore, except?: string): Promise<number> {
  const docker = await getDocker();
  const containers = await docker.listContainers({ all: true, filters: { label: [RUN_LABEL] } });
  const stale: string[] = [];
  const verdict = new Map<string, boolean>();
  for (const c of containers) {
    const runId = c.Labels[RUN_LABEL];
    if (!runId || runId === except) continue;
    if (!verdict.has(runId)) {
      const run = store.findRun(runId);
      verdict.set(runId, run !== undefined && (run.status !== 'running' || lockHolder(store.path, runId) === undefined));
    }
    if (verdict.get(runId)) stale.push(c.Id);
  }
  return stale.length ? removeAll(stale) : 0;
}
