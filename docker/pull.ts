import type Docker from 'dockerode';
import type { Readable } from 'node:stream';
import { pullStream } from './dockerode-calls.js';
import { getDocker } from './engine.js';
import { SandboxError, engineMessage } from './errors.js';
import type { PullProgress } from './types.js';

export type { PullProgress } from './types.js';

interface PullEvent {
  id?: string;
  status?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
  errorDetail?: { message?: string };
}

/**
 * Pulls one image through the engine, reporting progress, and resolves once the engine has it.
 * An abort stops the pull (the engine drops a pull whose request went away).
 */
export async function pullImage(
  name: string,
  options: { onProgress?: (p: PullProgress) => void; signal?: AbortSignal; docker?: Docker } = {},
): Promise<void> {
  const docker = options.docker ?? (await getDocker());
  options.signal?.throwIfAborted();
  let stream: Readable;
  try {
    stream = await pullStream(docker, name, options.signal);
  } catch (err) {
    throw new SandboxError(`could not pull ${name}: ${engineMessage(err)}`, { cause: err });
  }
  const layers = new Map<string, { current: number; total: number; done: boolean }>();
  const report = () => {
    if (!options.onProgress) return;
    let downloadedBytes = 0;
    let totalBytes = 0;
    let layersDone = 0;
    for (const l of layers.values()) {
      downloadedBytes += l.done ? l.total : l.current;
      totalBytes += l.total;
      if (l.done) layersDone++;
    }
    options.onProgress({ downloadedBytes, totalBytes, layersDone, layers: layers.size });
  };
  // The engine reports a failed pull (no such image, no space left) as an event, then ends the stream.
  let failure: string | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (err: Error | null) => (err ? reject(err) : resolve()),
        (event: PullEvent) => {
          if (event.error) {
            failure = event.errorDetail?.message ?? event.error;
            return;
          }
          const id = event.id;
          if (!id || !event.status) return;
          const layer = layers.get(id) ?? { current: 0, total: 0, done: false };
          const detail = event.progressDetail;
          if (event.status === 'Downloading' && detail?.total) {
            layer.current = detail.current ?? 0;
            layer.total = detail.total;
          } else if (/^(Download complete|Pull complete|Already exists)$/.test(event.status)) {
            layer.done = true;
          } else if (!/^Pulling fs layer|^Waiting|^Verifying|^Extracting/.test(event.status)) {
            return;
          }
          layers.set(id, layer);
          report();
        },
      );
    });
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new SandboxError(`could not pull ${name}: ${engineMessage(err)}`, { cause: err });
  }
  if (failure) throw new SandboxError(`could not pull ${name}: ${failure}`);
  const image = await docker
    .getImage(name)
    .inspect()
    .catch(() => undefined);
  if (!image) throw new SandboxError(`could not pull ${name}: the engine finished without the image`);
}
