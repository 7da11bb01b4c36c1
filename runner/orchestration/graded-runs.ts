/**
 * What a sample cannot do without besides its sandbox: the graded run of its tests. Measured bare, in sandboxes set up
 * beforehand and without the harness's checks around the run, so the demo and the benchmarks can set a run against the
 * floor plus the graded runs its samples made, as well as against the floor alone.
 */
import { sandboxBackend } from '../../docker/backends.js';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import type { Sandbox, SandboxBackend } from '../../docker/types.js';
import { taskKind } from '../../tasks/kinds/registry.js';
import { loadDataset } from '../../tasks/index.js';
import type { Task } from '../../tasks/task.js';

const GRADE_TIMEOUT_MS = 120_000;

interface GradedRunOptions {
  runs: number;
  concurrency: number;
  runId: string;
  /** Default: the docker backend on the local engine. */
  backend?: SandboxBackend;
}

/** A sandbox ready for one bare graded run of a task: a SWE repository set up; an LCB task needs nothing. */
async function prepare(
  task: Task,
  backend: SandboxBackend,
  runId: string,
  sampleId: string,
): Promise<{ sandbox: Sandbox; run: () => Promise<unknown> }> {
  const sandbox = await backend.create({ image: PYTHON_IMAGE, runId, sampleId });
  try {
    return { sandbox, run: await taskKind(task).prepareGradedRun(sandbox, task, GRADE_TIMEOUT_MS) };
  } catch (err) {
    await sandbox.destroy();
    throw err;
  }
}

/**
 * `runs` bare graded runs of a built-in task, `concurrency` at a time (each batch's sandboxes made and set up first,
 * untimed): the wall time of the runs ÷ their number, a graded run's cost per sample at that concurrency.
 */
export async function measureGradedRuns(task: Task, options: GradedRunOptions): Promise<number> {
  const backend = options.backend ?? sandboxBackend();
  let timed = 0;
  for (let done = 0; done < options.runs; ) {
    const batch = Math.min(options.concurrency, options.runs - done);
    const settled = await Promise.allSettled(
      Array.from({ length: batch }, (_, i) => prepare(task, backend, options.runId, `graded-${task.id}-${done + i}`)),
    );
    const ready = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw failed.reason;
      const started = performance.now();
      await Promise.all(ready.map((r) => r.run()));
      timed += performance.now() - started;
    } finally {
      await Promise.all(ready.map((r) => r.sandbox.destroy()));
    }
    done += batch;
  }
  return timed / options.runs;
}

/** A bare graded run of each dataset's first task, `2 × concurrency` runs at that concurrency: by dataset. */
export async function measureGradedRunsOf(datasets: readonly string[], options: Omit<GradedRunOptions, 'runs'>): Promise<Map<string, number>> {
  const gradedMs = new Map<string, number>();
  for (const dataset of datasets) {
    const [task] = await loadDataset(dataset);
    if (task) gradedMs.set(dataset, await measureGradedRuns(task, { ...options, runs: 2 * options.concurrency }));
  }
  return gradedMs;
}

/** The graded runs a run's samples made, one per attempt, by dataset. */
export function gradedRunsByDataset(samples: Iterable<{ key: { dataset: string }; attempts: number }>): Map<string, number> {
  const runs = new Map<string, number>();
  for (const sample of samples) {
    runs.set(sample.key.dataset, (runs.get(sample.key.dataset) ?? 0) + sample.attempts);
  }
  return runs;
}

/**
 * The floor plus the graded runs, against which a run's time says what the harness adds beyond the sandboxes and the
 * tests it must run: `samples × floor + Σ runs × a bare graded run's cost`, and its parts in words.
 */
export function floorWithGradedRuns(
  samples: number,
  floorPerSampleMs: number,
  runs: Map<string, number>,
  gradedMs: Map<string, number>,
): { ms: number; parts: string } {
  let ms = samples * floorPerSampleMs;
  const parts: string[] = [];
  for (const [dataset, n] of runs) {
    const each = gradedMs.get(dataset) ?? 0;
    ms += n * each;
    parts.push(`${dataset} ${n} × ${each.toFixed(0)} ms`);
  }
  return { ms, parts: parts.join(', ') };
}
