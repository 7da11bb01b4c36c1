import { hasReferenceRun } from '../../tasks/kinds/registry.js';
import { availableParallelism, totalmem } from 'node:os';
import type { Logger } from 'pino';
import type { SandboxBackend } from '../../docker/types.js';
import type { ResultStore } from '../../results/store.js';
import { type SandboxLimitSettings, taskSandboxLimits } from '../../tasks/env/sandbox-limits.js';
import { sweGradeTimeoutMs } from '../../tasks/env/swe.js';
import { taskImage, tasksByImage } from '../../tasks/images.js';
import { loadDataset } from '../../tasks/load.js';
import type { SweTask } from '../../tasks/task.js';
import type { Variant } from '../../core/record.js';
import type { Experiment } from '../settings/config.js';
import { selectTaskIds, type DatasetTasks } from './matrix.js';
import { applyReferences } from './reference-phase.js';
import { type ReferenceOutcome, ReferenceRuns } from './references.js';
import type { MissingImage } from './datasets.js';

/** A task the run's limits break: what happens without them, and which limit makes the difference. */
export interface LimitFinding {
  /** The reference run resolves with no CPU or memory limit. */
  resolvesUnlimited: boolean;
  /** `--cpus`, `--memory`, or both, when lifting it alone (or both) resolves the task. */
  limit?: string;
  /** The graded tests that pass without limits but not under them, each with its status and why. */
  tests: string[];
}

export interface PreflightTask {
  dataset: string;
  task: SweTask;
  outcome: ReferenceOutcome;
  finding?: LimitFinding;
}

export interface PreflightReport {
  tasks: PreflightTask[];
  missing: MissingImage[];
  /** Function tasks need no reference run. */
  otherTasks: number;
}

export interface PreflightOptions {
  backend: SandboxBackend;
  store: () => ResultStore;
  say: (line: string) => void;
  signal?: AbortSignal;
  log?: Logger;
  /** Progress on stderr (default true). */
  progress?: boolean;
}

/** As good as no limit: every CPU and all the memory of this machine. */
function noLimits(): SandboxLimitSettings {
  return { cpus: availableParallelism(), memoryMb: Math.floor(totalmem() / 1024 ** 2) };
}

/** The tasks `run` would pick with the same flags, by dataset, with the tasks whose image is missing left out. */
async function selectedTasks(experiment: Experiment, backend: SandboxBackend, say: (line: string) => void) {
  const byDataset = new Map<string, DatasetTasks>();
  const missing: MissingImage[] = [];
  let otherTasks = 0;
  for (const dataset of experiment.datasets) {
    const loaded = await loadDataset(dataset, { splits: experiment.splits, images: experiment.images, testSpecs: experiment.testSpecs, say });
    const bySplit: DatasetTasks = new Map();
    for (const t of loaded) bySplit.set(t.variant as Variant, [...(bySplit.get(t.variant as Variant) ?? []), t]);
    const picked = new Set(selectTaskIds(bySplit, experiment));
    const chosen = loaded.filter((t) => picked.has(t.id));
    otherTasks += new Set(chosen.filter((t) => !hasReferenceRun(t)).map((t) => t.id)).size;
    const byImage = tasksByImage(chosen.filter(hasReferenceRun));
    const absent = new Set(await backend.images.missing(byImage.keys()));
    for (const image of absent) missing.push({ dataset, image, taskIds: [...new Set(byImage.get(image)!.map((t) => t.id))] });
    const runnable: DatasetTasks = new Map([['original', chosen.filter((t) => hasReferenceRun(t) && !absent.has(taskImage(t)))]]);
    byDataset.set(dataset, runnable);
  }
  return { byDataset, missing, otherTasks };
}

/**
 * A broken task's reference run again with one limit lifted at a time, then both: the first that resolves it says which
 * limit made the difference, and which graded tests that limit broke. The run with the CPUs lifted alone is the one
 * a limit of memory alone would have (often the default limits, already in the store).
 */
async function diagnose(
  task: SweTask,
  outcome: ReferenceOutcome,
  runs: (limits: SandboxLimitSettings) => ReferenceRuns,
  given: SandboxLimitSettings,
): Promise<LimitFinding> {
  const free = noLimits();
  const limited = taskSandboxLimits(task, given);
  const memoryMb = Math.round(limited.memoryBytes / 1024 ** 2);
  const tries: [string, SandboxLimitSettings][] = [
    [`--cpus ${limited.cpus}`, { cpus: free.cpus, memoryMb }],
    [`--memory ${memoryMb}`, { cpus: limited.cpus, memoryMb: free.memoryMb }],
    [`--cpus ${limited.cpus} and --memory ${memoryMb}`, free],
  ];
  for (const [limit, lifted] of tries) {
    const freer = await runs(lifted).of(task);
    if (!freer.resolved) continue;
    const before = { ...outcome.grade?.failToPass, ...outcome.grade?.passToPass };
    const after = { ...freer.grade?.failToPass, ...freer.grade?.passToPass };
    const tests = Object.entries(before)
      .filter(([id, status]) => status !== after[id] && (after[id] === 'PASSED' || after[id] === 'XFAIL'))
      .map(([id, status]) => `${id} ${status === 'MISSING' ? 'did not run' : status.toLowerCase()}${skipNote(outcome, id)} under ${limit}`);
    return { resolvesUnlimited: true, limit, tests };
  }
  return { resolvesUnlimited: false, tests: [] };
}

/** Why a graded test did not pass under the limits: the reason its runner gave, or pytest's unnamed skips of its file. */
function skipNote(outcome: ReferenceOutcome, id: string): string {
  const reason = outcome.reference?.skipReasons[id];
  if (reason) return `: ${reason}`;
  const file = id.split('::')[0]!;
  const unnamed = (outcome.grade?.skipSummaries ?? []).filter((s) => s.path === file);
  if (unnamed.length === 0) return '';
  return ` (pytest skipped ${unnamed.reduce((n, s) => n + s.count, 0)} test(s) of ${file} without naming them: ${[...new Set(unnamed.map((s) => s.reason))].join('; ')})`;
}

/**
 * Makes the reference runs of the tasks a run of `experiment` would pick (published images or local ones), keeping
 * them in the store for that run, and diagnoses each environment-broken one under no limits.
 */
export async function preflight(experiment: Experiment, options: PreflightOptions): Promise<PreflightReport> {
  const { backend, say } = options;
  const { byDataset, missing, otherTasks } = await selectedTasks(experiment, backend, say);
  const timeoutMs = sweGradeTimeoutMs(experiment.limits.toolTimeoutS * 1000);
  const runs = (limits: SandboxLimitSettings) =>
    new ReferenceRuns({
      backend,
      limits,
      timeoutMs,
      store: options.store,
      runId: `validate-${process.pid}`,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  const main = runs(experiment.limits);
  const tasks: PreflightTask[] = [];
  for (const [dataset, selected] of byDataset) {
    const byId = new Map(selected.get('original')!.map((t) => [t.id, t as SweTask]));
    const outcomes = await applyReferences(
      dataset,
      selected,
      { runs: main, concurrency: experiment.concurrency, progress: options.progress !== false },
      say,
    );
    for (const outcome of outcomes) tasks.push({ dataset, task: byId.get(outcome.taskId)!, outcome });
  }
  const broken = tasks.filter((t) => !t.outcome.resolved && t.outcome.grade);
  if (broken.length) say(`running the ${broken.length} environment-broken task(s) again without CPU and memory limits...`);
  for (const t of broken) t.finding = await diagnose(t.task, t.outcome, runs, experiment.limits);
  return { tasks, missing, otherTasks };
}
