import type Docker from 'dockerode';
import { getDocker } from './engine.js';
import { engineMessage, engineStatus } from './errors.js';
import { RUN_LABEL, SAMPLE_LABEL } from './labels.js';

export interface SandboxContainer {
  id: string;
  runId: string;
  sampleId: string;
  state: string;
  created: Date;
}

/** Every sandbox container on the engine (running or not), optionally of one run only. */
export async function listSandboxContainers(runId?: string, docker?: Docker): Promise<SandboxContainer[]> {
  const engine = docker ?? (await getDocker());
  const list = await engine.listContainers({
    all: true,
    filters: { label: [runId === undefined ? RUN_LABEL : `${RUN_LABEL}=${runId}`] },
  });
  return list.map((c) => ({
    id: c.Id,
    runId: c.Labels[RUN_LABEL] ?? '',
    sampleId: c.Labels[SAMPLE_LABEL] ?? '',
    state: c.State,
    created: new Date(c.Created * 1000),
  }));
}

export interface CleanupResult {
  removed: SandboxContainer[];
  failed: Array<{ container: SandboxContainer; error: string }>;
}

/**
 * Force-removes sandbox containers by label, so it also finds those whose creating process died
 * without a chance to clean up (SIGKILL, a crash, a closed laptop).
 */
export async function removeSandboxContainers(options: { runId?: string; concurrency?: number } = {}): Promise<CleanupResult> {
  const docker = await getDocker();
  const found = await listSandboxContainers(options.runId, docker);
  const result: CleanupResult = { removed: [], failed: [] };
  const queue = [...found];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      try {
        await docker.getContainer(c.id).remove({ force: true, v: true });
        result.removed.push(c);
      } catch (err) {
        // Gone already or being removed by someone else: it will not be there either way.
        if (engineStatus(err) === 404 || engineStatus(err) === 409) result.removed.push(c);
        else result.failed.push({ container: c, error: engineMessage(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  return result;
}
