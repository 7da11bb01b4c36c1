import { sandboxBackend } from '../../docker/backends.js';
import type { Sandbox, SandboxBackend } from '../../docker/types.js';

/**
 * Runs jobs on a few long-lived sandboxes of one image: each sandbox takes the next job when it
 * is free, so many small runs share a handful of containers. Every sandbox is destroyed at the end.
 */
export async function onSandboxes<T, R>(
  items: readonly T[],
  options: { image: string; runId: string; size: number; signal?: AbortSignal; backend?: SandboxBackend },
  job: (sandbox: Sandbox, item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const size = Math.max(1, Math.min(options.size, items.length));
  const sandboxes: Sandbox[] = [];
  try {
    await Promise.all(
      Array.from({ length: size }, async (_, w) => {
        const sandbox = await (options.backend ?? sandboxBackend()).create({ image: options.image, runId: options.runId, sampleId: `validate-${w}` });
        sandboxes.push(sandbox);
        while (next < items.length) {
          options.signal?.throwIfAborted();
          const i = next++;
          results[i] = await job(sandbox, items[i]!, i);
        }
      }),
    );
  } finally {
    await Promise.all(sandboxes.map((s) => s.destroy().catch(() => undefined)));
  }
  return results;
}

/** One fresh sandbox for one job, destroyed afterwards whatever happens. */
export async function inSandbox<R>(
  options: { image: string; runId: string; sampleId: string; backend?: SandboxBackend },
  job: (sandbox: Sandbox) => Promise<R>,
): Promise<R> {
  const { backend = sandboxBackend(), ...sandboxOptions } = options;
  const sandbox = await backend.create(sandboxOptions);
  try {
    return await job(sandbox);
  } finally {
    await sandbox.destroy().catch(() => undefined);
  }
}

/** The type of the last exception a Python traceback in `stderr` reports, e.g. `AssertionError`. */
export function lastExceptionType(stderr: string): string | undefined {
  const start = stderr.lastIndexOf('Traceback (most recent call last):');
  if (start < 0) return undefined;
  const lines = stderr.slice(start).split('\n');
  // The exception line is the first unindented line after the frames.
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '' || line.startsWith(' ')) continue;
    const name = line.split(':', 1)[0]!.trim();
    return name.split('.').pop();
  }
  return undefined;
}
