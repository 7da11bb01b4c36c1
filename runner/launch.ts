import { existsSync } from 'node:fs';
import { totalCapacity } from '../docker/hosts.js';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { DEFAULT_STORE_FILE, openStore, type ResultStore } from '../results/store.js';
import { matrixDifference, matrixValue, mergeSettings, parseExperiment, type Experiment } from './config.js';
import type { MissingImage } from './datasets.js';
import { UserError } from '../core/errors.js';
import { imagesPullCommand, missingImagesText } from './missing-images.js';
import { runExperiment, type RunSummary } from './experiment.js';
import { lockRun } from './lock.js';
import { fileLogger, logPathFor } from './logging.js';
import type { ProgressOptions } from './progress.js';
import { runTable } from './table.js';
import { readTemplateFiles, templatesLine } from './templates.js';
import type { Wiring } from './wiring.js';

export interface LaunchInput {
  /** Settings from a config file (already read), or none. */
  file?: { path: string; settings: Record<string, unknown> };
  /** Settings from flags, keyed like the config; undefined values were not given. */
  flags: Record<string, unknown>;
  /** The flag each top-level field comes from, to name it in errors. */
  flagNames: Record<string, string>;
  store?: string;
  runId?: string;
  /** Makes the wiring once the experiment is known. */
  wire: (experiment: Experiment) => Promise<Wiring>;
  signal: AbortSignal;
  progress?: ProgressOptions;
  abortGraceMs?: number;
  /** Where "removed N leftover containers" and such go; default stderr. */
  say?: (line: string) => void;
}

export interface LaunchResult {
  summary: RunSummary;
  storePath: string;
  logPath: string;
  experiment: Experiment;
  /** The run's metrics table (all its samples, resumed ones included). */
  table: string;
  /** Images the engine lacks, and the tasks left out of the run for them. */
  missingImages: MissingImage[];
  /** Time spent running samples, after loading, making and validating the tasks. */
  samplesMs: number;
}

/** With a pool of engines, samples in flight are the engines' total capacity, or fewer when `concurrency` says so. */
function poolConcurrency(experiment: Experiment, given: boolean): Experiment {
  if (!experiment.dockerHosts) return experiment;
  const total = totalCapacity(experiment.dockerHosts);
  return { ...experiment, concurrency: given ? Math.min(experiment.concurrency, total) : total };
}

/** Resolves the experiment for a new run, or for a resume checks that the matrix is unchanged. */
function resolveExperiment(input: LaunchInput, store: ResultStore | undefined): { experiment: Experiment; resume: boolean } {
  const given = Object.fromEntries(Object.entries(input.flags).filter(([, v]) => v !== undefined));
  const sourceOf = (field: string) => (field in given ? (input.flagNames[field] ?? field) : (input.file?.path ?? 'the command line'));
  const existing = input.runId ? store?.findRun(input.runId) : undefined;
  if (!existing) {
    const settings = mergeSettings(input.file?.settings ?? {}, given);
    if (settings.models === undefined) {
      throw new UserError('no model given', 'pass --model (e.g. --model scripted/honest, openai/gpt-5) or a --config file with `models`');
    }
    const parsed = readTemplateFiles(parseExperiment(settings, sourceOf), sourceOf('templates'));
    return { experiment: poolConcurrency(parsed, settings.concurrency !== undefined), resume: false };
  }
  const stored = parseExperiment(existing.config, `the stored config of run ${existing.id}`);
  const nothingGiven = Object.keys(given).length === 0 && !input.file;
  if (nothingGiven) return { experiment: stored, resume: true };
  // The same command line again resumes; one that changes the matrix would mix two experiments.
  const mergedSettings = mergeSettings({ ...stored, ...(input.file?.settings ?? {}) }, given);
  const parsed = readTemplateFiles(parseExperiment(mergedSettings, sourceOf), sourceOf('templates'));
  const merged = poolConcurrency(parsed, 'concurrency' in given || input.file?.settings.concurrency !== undefined || !('dockerHosts' in given));
  const field = matrixDifference(stored, merged);
  if (field) {
    throw new UserError(
      `run ${existing.id} was started with a different \`${field}\` (${JSON.stringify(matrixValue(stored, field))})`,
      `resume it with the same settings (or only --run-id ${existing.id} --store ...), or start a new run without --run-id`,
    );
  }
  return { experiment: merged, resume: true };
}

/**
 * The `run` command's body, shared with the demo: settle the experiment, check the machine,
 * create or resume the run, run it, and close everything whatever happens.
 */
export async function launchRun(input: LaunchInput): Promise<LaunchResult> {
  const say = input.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const storePath = resolve(input.store ?? DEFAULT_STORE_FILE);
  // A resume needs the store to find its run; a new run opens it only once its input is known good.
  let store = input.runId && existsSync(storePath) ? openStore(storePath) : undefined;
  let wiring: Wiring | undefined;
  let unlock: (() => void) | undefined;
  let logger: { log: Logger; close: () => void } | undefined;
  try {
    const { experiment, resume } = resolveExperiment(input, store);
    // A resume checks first that no other process is running the same run.
    if (resume) unlock = lockRun(storePath, input.runId!);
    wiring = await input.wire(experiment);
    await wiring.preflight(experiment);
    // Load (and, where needed, make) the tasks before the run exists, so bad input leaves no run behind.
    const datasets = new Map<string, Awaited<ReturnType<Wiring['loadTasks']>>>();
    for (const dataset of experiment.datasets) {
      say(`loading ${dataset} (${experiment.splits.join(', ')})...`);
      try {
        datasets.set(dataset, await wiring.loadTasks(dataset, experiment));
      } catch (err) {
        if (input.signal.aborted) throw new UserError(`interrupted while preparing ${dataset}; no run was ${resume ? 'changed' : 'created'}`);
        throw err;
      }
    }
    const missingImages = wiring.missingImages?.() ?? [];
    if (missingImages.length > 0) {
      const runnable = [...datasets.values()].reduce((n, splits) => n + [...splits.values()].reduce((m, list) => m + list.length, 0), 0);
      const fix = imagesPullCommand(experiment);
      if (runnable === 0) throw new UserError(missingImagesText(missingImages, 'so no task can run').join('\n'), fix);
      for (const line of missingImagesText(missingImages, 'so their tasks are left out of this run')) say(line);
      say(`  get them with: ${fix}`);
    }
    store ??= openStore(storePath);
    const runId = resume ? input.runId! : store.createRun(experiment, input.runId ? { id: input.runId } : {});
    if (missingImages.length > 0) store.addEvent(runId, 'images_missing', { images: missingImages });
    unlock ??= lockRun(storePath, runId);
    if (resume) store.resumeRun(runId);
    const stale = await wiring.removeStale?.(store, runId).catch(() => 0);
    if (stale) say(`removed ${stale} container${stale === 1 ? '' : 's'} left by earlier runs of this store`);
    const logPath = logPathFor(storePath, runId);
    logger = fileLogger(logPath, { run: runId });
    say(`${resume ? 'resuming' : 'starting'} run ${runId} (store ${storePath}, log ${logPath})`);
    const replaced = templatesLine(experiment);
    if (replaced) say(replaced);
    const w = wiring;
    const samplesStarted = performance.now();
    const summary = await runExperiment({
      experiment,
      store,
      runId,
      services: w.services,
      loadTasks: async (dataset) => datasets.get(dataset) ?? w.loadTasks(dataset, experiment),
      removeLeftovers: async (id) => {
        const n = await w.removeLeftovers(id);
        if (n > 0) say(`removed ${n} container${n === 1 ? '' : 's'} left by an earlier process of run ${id}`);
        return n;
      },
      signal: input.signal,
      log: logger.log,
      ...(input.progress ? { progress: input.progress } : {}),
      ...(input.abortGraceMs !== undefined ? { abortGraceMs: input.abortGraceMs } : {}),
    });
    const samplesMs = performance.now() - samplesStarted;
    return { summary, storePath, logPath, experiment, table: runTable(store, runId), missingImages, samplesMs };
  } finally {
    logger?.close();
    unlock?.();
    await wiring?.close().catch(() => {});
    store?.close();
  }
}
