import { sandboxBackend } from './backends.js';
import { PYTHON_IMAGE } from './images.js';
import type { SandboxBackend } from './types.js';

/** What no sample can cost less than: bare sandbox lifecycles, measured on this machine at a given concurrency. */
export interface SandboxFloor {
  concurrency: number;
  runs: number;
  /** Wall time of all runs ÷ their number: the floor's cost per sample at this concurrency. */
  perSampleMs: number;
  /** Mean time of one lifecycle from its start to its end, at this concurrency. */
  latencyMs: number;
}

/**
 * Runs `runs` bare lifecycles (create, start, one command, remove) of the Python image, `concurrency` at a time,
 * after one warm-up unless `warmUp` is false, on the given backend (default Docker). Benchmarks and the demo state
 * their times as ratios to this, measured in the same process.
 */
export async function measureFloor(options: {
  runs: number;
  concurrency: number;
  runId: string;
  backend?: SandboxBackend;
  warmUp?: boolean;
}): Promise<SandboxFloor> {
  const backend = options.backend ?? sandboxBackend();
  let busy = 0;
  const lifecycle = async (i: number) => {
    const t = performance.now();
    const sandbox = await backend.create({ image: PYTHON_IMAGE, runId: options.runId, sampleId: `floor-${i}` });
    try {
      await sandbox.exec(['true']);
    } finally {
      await sandbox.destroy();
    }
    if (i >= 0) busy += performance.now() - t;
  };
  if (options.warmUp !== false) await lifecycle(-1);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency, options.runs) }, async () => {
      while (next < options.runs) await lifecycle(next++);
    }),
  );
  return {
    concurrency: options.concurrency,
    runs: options.runs,
    perSampleMs: (performance.now() - started) / options.runs,
    latencyMs: busy / options.runs,
  };
}
