import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { sandboxBackend } from '../../docker/backends.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import type { Experiment } from '../settings/config.js';
import { resolveSettings, type SettingsSources } from '../settings/resolve-settings.js';
import { checkModelSpec } from '../wiring/real-wiring.js';
import { interviewJudgeSpec } from '../wiring/interview-judge.js';
import { loadDatasetSplits, type MissingImage } from './datasets.js';
import { estimateRun, readHistory, type ModelEstimate } from './estimate.js';
import { downloadSize } from './images-pull.js';
import { loadTasksOnce } from './load-tasks.js';
import { expandMatrix, type DatasetTasks, type PlannedSample } from './matrix.js';
import { taskImage, tasksByImage } from '../../tasks/images.js';
import type { Task } from '../../tasks/task.js';
import { isProjectImage } from './missing-images.js';
import { samplesLeft } from './resume-plan.js';
import { runPrices } from './run-prices.js';

export interface DryRunInput extends SettingsSources {
  store?: string;
  /** Where loading progress goes; default stderr. */
  say?: (line: string) => void;
  signal?: AbortSignal;
  /** How long the registries get, in all, to tell the missing images' sizes; default 5 s. */
  registryTimeoutMs?: number;
}

/** The images a run would lack, and what getting them would download. */
export interface ImageDownload {
  missing: MissingImage[];
  /** Compressed bytes of the missing registry images whose manifests were read (layers they share counted once). */
  bytes: number;
  /** Missing registry images whose size no registry told in time. */
  unknown: string[];
  /** Missing images this project builds (`images build`) rather than pulls. */
  built: string[];
  /** Why the engine could not say which images it has, when it could not. */
  engineError?: string;
}

/** A plan's samples: all of them, those left to run, and their estimate per model. */
export interface PlanEstimate {
  planned: PlannedSample[];
  /** The planned samples less those the resumed run has finished. */
  todo: PlannedSample[];
  estimates: ModelEstimate[];
}

export interface DryRunReport extends PlanEstimate {
  experiment: Experiment;
  storePath: string;
  /** The stored run a `--run-id` would resume. */
  resumes?: string;
  images: ImageDownload;
  /** The same plan with the tasks the missing images hold back: what the run would be once they are pulled. */
  withImages?: PlanEstimate;
}

const REGISTRY_TIMEOUT_MS = 5_000;

/** The missing images' download size, from their registries' manifests, within `timeoutMs` in all. */
async function sizeDownloads(images: ImageDownload, arch: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const names = [...new Set(images.missing.map((m) => m.image))];
  images.built = names.filter(isProjectImage);
  const pulled = names.filter((n) => !isProjectImage(n));
  if (pulled.length === 0) return;
  const bound = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
  const size = await downloadSize(pulled, arch, bound);
  images.bytes = size.bytes;
  images.unknown = size.unknown;
}

/** The tasks of each missing image, per dataset, as a run reports them. */
function missingOf(tasks: Map<string, DatasetTasks>, absent: ReadonlySet<string>): MissingImage[] {
  const out: MissingImage[] = [];
  for (const [dataset, splits] of tasks) {
    for (const [image, list] of tasksByImage([...splits.values()].flat())) {
      if (absent.has(image)) out.push({ dataset, image, taskIds: [...new Set(list.map((t) => t.id))] });
    }
  }
  return out;
}

/** The tasks a run would keep: those whose image the engine has. */
function withoutImages(tasks: Map<string, DatasetTasks>, absent: ReadonlySet<string>): Map<string, DatasetTasks> {
  if (absent.size === 0) return tasks;
  const keep = (list: Task[]) => list.filter((t) => !absent.has(taskImage(t)));
  return new Map([...tasks].map(([dataset, splits]) => [dataset, new Map([...splits].map(([split, list]) => [split, keep(list)]))]));
}

/**
 * What `run` would do with the same settings, without doing it: the settings resolved as the run resolves them, the
 * tasks loaded and their variants made (not validated: that takes sandboxes), the matrix planned by the run's own
 * planner, what a resume would skip, the images it lacks, and the cost and time per model. The store is only read
 * (and not created); no container is started.
 */
export async function dryRun(input: DryRunInput): Promise<DryRunReport> {
  const say = input.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const storePath = resolve(input.store ?? DEFAULT_STORE_FILE);
  const store = existsSync(storePath) ? openStore(storePath, { readonly: true }) : undefined;
  try {
    const { experiment, resume } = resolveSettings(input, store);
    for (const model of experiment.models) checkModelSpec(model);
    // A judge the run would refuse, the dry run refuses too.
    interviewJudgeSpec(experiment);
    const prices = runPrices(experiment);
    const images: ImageDownload = { missing: [], bytes: 0, unknown: [], built: [] };
    const absent = new Set<string>();
    const backend = sandboxBackend(experiment.sandbox, experiment.dockerHosts ?? []);
    // Every task is loaded, as if its image were here: the plan without the missing ones is made below, and the plan with them too.
    const missingImages = async (names: string[]) => {
      try {
        for (const name of await backend.images.missing(names)) absent.add(name);
      } catch (err) {
        // An engine that cannot be asked leaves every task in, and the report says why.
        images.engineError ??= (err as Error).message;
      }
      return [];
    };
    const signal = input.signal ?? new AbortController().signal;
    const loader = { loadTasks: (dataset: string, exp: Experiment) => loadDatasetSplits(dataset, exp, { say, signal, missingImages }) };
    const tasks = await loadTasksOnce(loader, experiment, { signal, resume, say });
    images.missing = missingOf(tasks, absent);
    await sizeDownloads(images, experiment.images.arch, input.registryTimeoutMs ?? REGISTRY_TIMEOUT_MS, input.signal);
    const ctx = {
      history: store ? readHistory(store, experiment.datasets) : [],
      prices,
      ...(experiment.scriptedPriceAs ? { scriptedPriceAs: experiment.scriptedPriceAs } : {}),
    };
    const estimatePlan = (planned: PlannedSample[]): PlanEstimate => {
      const todo = resume && store ? samplesLeft(planned, store, input.runId!, experiment.retries + 1) : planned;
      return { planned, todo, estimates: estimateRun(todo, ctx) };
    };
    const plan = estimatePlan(expandMatrix(experiment, withoutImages(tasks, absent)));
    return {
      experiment,
      storePath,
      ...(resume ? { resumes: input.runId! } : {}),
      ...plan,
      images,
      ...(absent.size > 0 ? { withImages: estimatePlan(expandMatrix(experiment, tasks)) } : {}),
    };
  } finally {
    store?.close();
  }
}
