import { getDocker } from '../docker/engine.js';
import { RUN_LABEL } from '../docker/labels.js';

/**
 * Removes every container labelled with this run id, running or not: what a killed process of
 * the same run left behind. Containers of other runs are left alone (they may be live);
 * `impossiblebench cleanup` removes those.
 */
export async function removeRunContainers(runId: string): Promise<number> {
  const docker = await getDocker();
  const containers = await docker.listContainers({ all: true, filters: { label: [`${RUN_LABEL}=${runId}`] } });
  const results = await Promise.allSettled(
    containers.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true })),
  );
  // A container that vanished in between (404) is as good as removed.
  return results.filter((r) => r.status === 'fulfilled' || (r.reason as { statusCode?: number }).statusCode === 404).length;
}
