import type Docker from 'dockerode';
import { withEngineDeadline } from './deadline.js';
import { sizeRw } from './dockerode-calls.js';
import { getDocker } from './engine.js';
import { engineMessage, engineStatus } from './errors.js';
import { RUN_LABEL, SAMPLE_LABEL } from './labels.js';
import type { RemoveResult, SandboxInfo } from './types.js';

/** Every sandbox container on the engine (running or not), optionally of one run only, optionally with its layer's size. */
export async function listSandboxContainers(runId?: string, docker?: Docker, diskUsage = false): Promise<SandboxInfo[]> {
  const engine = docker ?? (await getDocker());
  const list = await withEngineDeadline('list containers', (abortSignal) =>
    engine.listContainers({
      all: true,
      ...(diskUsage ? { size: true } : {}),
      filters: { label: [runId === undefined ? RUN_LABEL : `${RUN_LABEL}=${runId}`] },
      abortSignal,
    }),
  );
  return list.map((c) => ({
    id: c.Id,
    runId: c.Labels[RUN_LABEL] ?? '',
    sampleId: c.Labels[SAMPLE_LABEL] ?? '',
    state: c.State,
    created: new Date(c.Created * 1000),
    ...(diskUsage ? { diskBytes: sizeRw(c) } : {}),
  }));
}

/**
 * Force-removes one container and its anonymous volumes, within the engine deadline. One already gone, or being
 * removed by someone else, counts as removed: it will not be there either way.
 */
export async function forceRemove(container: Docker.Container): Promise<void> {
  try {
    await withEngineDeadline('remove a container', (abortSignal) => container.remove({ force: true, v: true, abortSignal }));
  } catch (err) {
    if (engineStatus(err) !== 404 && engineStatus(err) !== 409) throw err;
  }
}

/** When to look again for a container whose create went unanswered: the engine may carry the create out late. */
const LATE_CREATE_CHECKS_MS = [1_000, 4_000, 15_000, 60_000, 240_000];

/**
 * Removes the container of this name once the engine has made it, for a create that was given up at its deadline: the
 * engine may still carry the request out, and nothing else would own the result until the next run sweeps its label.
 * Looks a few times over some minutes, on timers that never keep the process alive.
 */
export function removeWhenMadeLate(docker: Docker, name: string, checks: readonly number[] = LATE_CREATE_CHECKS_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const look = (i: number) => {
      if (i >= checks.length) return resolve(false);
      setTimeout(
        async () => {
          try {
            await withEngineDeadline('remove a container', (abortSignal) => docker.getContainer(name).remove({ force: true, v: true, abortSignal }));
            resolve(true);
          } catch {
            // Not there yet (404), still being made (409), or the engine still busy: look again later.
            look(i + 1);
          }
        },
        checks[i]! - (checks[i - 1] ?? 0),
      ).unref();
    };
    look(0);
  });
}

/** Force-removes these containers (and their anonymous volumes), a few at a time. */
export async function removeContainers(found: SandboxInfo[], concurrency = 8): Promise<RemoveResult> {
  const docker = await getDocker();
  const result: RemoveResult = { removed: [], failed: [] };
  const queue = [...found];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      try {
        await forceRemove(docker.getContainer(c.id));
        result.removed.push(c);
      } catch (err) {
        result.failed.push({ sandbox: c, error: engineMessage(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return result;
}

/**
 * Force-removes sandbox containers by label, so it also finds those whose creating process died
 * without a chance to clean up (SIGKILL, a crash, a closed laptop).
 */
export async function removeSandboxContainers(options: { runId?: string; olderThan?: Date; concurrency?: number } = {}): Promise<RemoveResult> {
  const found = await listSandboxContainers(options.runId);
  const old = options.olderThan ? found.filter((c) => c.created < options.olderThan!) : found;
  return removeContainers(old, options.concurrency);
}
