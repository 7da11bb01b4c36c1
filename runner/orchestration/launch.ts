import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { DEFAULT_STORE_FILE, openStore, type ResultStore, type RunReference } from '../../results/store.js';
import type { Experiment } from '../settings/config.js';
import type { MissingImage } from './datasets.js';
import { runExperiment, type RunSummary } from './experiment.js';
import { clearLeftovers } from './leftovers.js';
import { checkEnvironmentBroken, checkMissingImages, loadTasksOnce } from './load-tasks.js';
import { lockRun } from './lock.js';
import { fileLogger, logPathFor } from '../wiring/logging.js';
import type { ProgressOptions } from '../output/progress.js';
import { resolveSettings, type SettingsSources } from '../settings/resolve-settings.js';
import { runTable } from '../output/table.js';
import { templatesLine } from '../settings/templates.js';
import type { Wiring } from '../wiring/wiring.js';

export interface LaunchInput extends SettingsSources {
  store?: string;
  /** Makes the wiring once the experiment is known; `store` opens the run's store on first need (reference runs keep there). */
  wire: (experiment: Experiment, context: WireContext) => Promise<Wiring>;
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
  /** The tasks their reference runs did not resolve, left out of the run. */
  environmentBroken: RunReference[];
  /** Time spent running samples, after loading, making and validating the tasks. */
  samplesMs: number;
}

export interface WireContext {
  store: () => ResultStore;
}

/** What a launch holds open, closed whatever happens. */
interface Held {
  store?: ResultStore;
  wiring?: Wiring;
  unlock?: () => void;
  logger?: { log: Logger; close: () => void };
}

/** The new run in the store, or the resumed one, locked to this process. */
function openRun(held: Held, storePath: string, experiment: Experiment, resume: boolean, runId: string | undefined, missing: MissingImage[]) {
  const store = (held.store ??= openStore(storePath));
  const id = resume ? runId! : store.createRun(experiment, runId ? { id: runId } : {});
  if (missing.length > 0) store.addEvent(id, 'images_missing', { images: missing });
  held.unlock ??= lockRun(storePath, id);
  if (resume) {
    const run = store.resumeRun(id);
    // The budget a resume gives is the run's from now on: a later resume without flags keeps it.
    const recorded = run.config as Record<string, unknown>;
    if (recorded.maxRunCost !== experiment.maxRunCost) store.setRunConfig(id, { ...recorded, maxRunCost: experiment.maxRunCost });
  }
  return { store, runId: id };
}

/**
 * The `run` command's body, shared with the demo, as one pipeline: resolve the settings, wire, load the tasks once,
 * open the run, clear what earlier processes left, run the matrix into the store. Everything is closed whatever happens.
 */
export async function launchRun(input: LaunchInput): Promise<LaunchResult> {
  const say = input.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const storePath = resolve(input.store ?? DEFAULT_STORE_FILE);
  // A resume needs the store to find its run; a new run opens it only once its input is known good.
  const held: Held = input.runId && existsSync(storePath) ? { store: openStore(storePath) } : {};
  try {
    const { experiment, resume } = resolveSettings(input, held.store);
    // A resume checks first that no other process is running the same run.
    if (resume) held.unlock = lockRun(storePath, input.runId!);
    const wiring = (held.wiring = await input.wire(experiment, { store: () => (held.store ??= openStore(storePath)) }));
    await wiring.preflight(experiment);
    const tasks = await loadTasksOnce(wiring, experiment, { signal: input.signal, resume, say });
    const missingImages = checkMissingImages(wiring, experiment, tasks, say);
    checkEnvironmentBroken(wiring, experiment, tasks);
    const { store, runId } = openRun(held, storePath, experiment, resume, input.runId, missingImages);
    const references = wiring.references?.() ?? [];
    store.recordRunReferences(runId, references);
    const logPath = logPathFor(storePath, runId);
    const logger = (held.logger = fileLogger(logPath, { run: runId }));
    await clearLeftovers(wiring, store, runId, { say, log: logger.log });
    say(`${resume ? 'resuming' : 'starting'} run ${runId} (store ${storePath}, log ${logPath})`);
    const replaced = templatesLine(experiment);
    if (replaced) say(replaced);
    const programs = experiment.scaffolds.filter((s) => s !== 'minimal' && s !== 'full');
    // An agent program runs its own loop: its tool results are its own, and cannot carry the warning.
    if (experiment.limits.budgetWarning && programs.length)
      say(`--budget-warning: ${programs.join(', ')} run${programs.length === 1 ? 's' : ''} its own loop, so its tool results carry no warning`);
    const samplesStarted = performance.now();
    const summary = await runExperiment({
      experiment,
      store,
      runId,
      services: wiring.services,
      tasks,
      signal: input.signal,
      log: logger.log,
      ...(input.progress ? { progress: input.progress } : {}),
      ...(input.abortGraceMs !== undefined ? { abortGraceMs: input.abortGraceMs } : {}),
    });
    const samplesMs = performance.now() - samplesStarted;
    const environmentBroken = references.filter((r) => !r.resolved);
    return { summary, storePath, logPath, experiment, table: runTable(store, runId), missingImages, environmentBroken, samplesMs };
  } finally {
    held.logger?.close();
    held.unlock?.();
    await held.wiring?.close().catch(() => {});
    held.store?.close();
  }
}
