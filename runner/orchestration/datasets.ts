import { taskKind } from '../../tasks/kinds/registry.js';
import { mutateTask } from '../../mutations/task.js';
import type { SweValidationOptions } from '../../mutations/validate/swe.js';
import { taskImage, tasksByImage } from '../../tasks/images.js';
import { loadDataset } from '../../tasks/load.js';
import { formatProblem } from '../../tasks/rows.js';
import type { SweTask, Task } from '../../tasks/task.js';
import { applyReferences, type ReferencePhase } from './reference-phase.js';
import type { Variant } from '../../core/record.js';
import type { SandboxBackend } from '../../docker/types.js';
import type { Experiment } from '../settings/config.js';
import { UserError } from '../../core/errors.js';
import { selectTaskIds, type DatasetTasks } from './matrix.js';
import { rememberKnownIds } from './task-filter.js';
import { validateMade } from './validate-made.js';

/** Tasks left out of a run because the engine lacks their image. */
export interface MissingImage {
  dataset: string;
  image: string;
  taskIds: string[];
}

export interface LoadOptions {
  /** Prove each generated variant impossible in a sandbox before it is used (needs reference solutions). */
  validateVariants?: boolean;
  say?: (line: string) => void;
  /** Stops validation early (an interrupt before the run starts). */
  signal?: AbortSignal;
  /** Where validation's sandboxes come from (default: the default backend). */
  backend?: SandboxBackend;
  /** Which of these images the engine lacks: the tasks that need them are left out, before any validation. */
  missingImages?: (images: string[]) => Promise<string[]>;
  /** Told of each image that is missing, with the tasks left out for it. */
  onMissingImage?: (missing: MissingImage) => void;
  /** The image a SWE variant's validation sandbox starts from, when not its own (a history image). */
  imageFor?: SweValidationOptions['imageFor'];
  /** The CPUs and memory of validation's sandboxes, as the run's. */
  limits?: SweValidationOptions['limits'];
  /** Reference runs of the SWE tasks, before any variant is made: environment-broken tasks are left out. */
  references?: ReferencePhase;
}

function groupBySplit(tasks: readonly Task[]): DatasetTasks {
  const out: DatasetTasks = new Map();
  for (const t of tasks) {
    let list = out.get(t.variant);
    if (!list) out.set(t.variant, (list = []));
    list.push(t);
  }
  return out;
}

/**
 * Loads a dataset for an experiment: the splits it ships, plus the impossible variants it lacks,
 * made (seeded) from the originals of the tasks the experiment picks, and validated when asked.
 * Tasks for which no valid variant can be made are left out of that split, and said so.
 */
export async function loadDatasetSplits(dataset: string, experiment: Experiment, options: LoadOptions = {}): Promise<DatasetTasks> {
  const say = options.say ?? (() => {});
  let skipped = 0;
  const loaded = groupBySplit(
    await loadDataset(dataset, {
      splits: experiment.splits,
      images: experiment.images,
      testSpecs: experiment.testSpecs,
      onProblem: (problem) => {
        if (++skipped <= 3) say(`  skipped a bad row: ${formatProblem(problem)}`);
      },
    }),
  );
  if (skipped > 3) say(`  ${dataset}: ${skipped} bad rows skipped in all (see \`impossiblebench datasets show ${dataset}\`)`);
  if (loaded.size === 0) throw new UserError(`dataset ${dataset} has no tasks`);
  const picked = new Set(selectTaskIds(loaded, experiment));
  const out: DatasetTasks = new Map();
  rememberKnownIds(
    out,
    [...loaded.values()].flatMap((list) => list.map((t) => t.id)),
  );
  for (const [split, list] of loaded)
    out.set(
      split,
      list.filter((t) => picked.has(t.id)),
    );
  sayMissingSpecs([...out.values()].flat(), say);
  if (options.missingImages) {
    await leaveOutMissingImages(dataset, out, options.missingImages, options.onMissingImage);
    // Nothing of this dataset can run here: the caller says which images to get.
    if ([...out.values()].every((list) => list.length === 0)) return out;
  }
  if (options.references) await applyReferences(dataset, out, options.references, say);

  const missing = experiment.splits.filter((s): s is Exclude<Variant, 'original'> => s !== 'original' && !loaded.has(s));
  if (missing.length === 0) return out;
  const originals = out.get('original') ?? [];
  if (originals.length === 0) {
    throw new UserError(`dataset ${dataset} has no ${missing.join(' or ')} split and no original tasks to make one from`);
  }
  const made: Task[] = [];
  for (const type of missing) {
    const list: Task[] = [];
    for (const task of originals) {
      const variant = await mutateTask(task, type, experiment.seed);
      if (!variant.ok) say(`  ${task.id}: no ${type} variant (${variant.reason})`);
      else {
        list.push(variant.task);
        made.push(variant.task);
      }
    }
    out.set(type, list);
  }
  if (options.validateVariants && made.length > 0) {
    const { replaced, dropped } = await validateMade(made, originals, experiment.seed, say, dataset, {
      ...options,
      maxTries: experiment.maxTries,
      ...(options.references ? { original: (task: SweTask) => options.references!.runs.original(task) } : {}),
    });
    for (const [split, list] of out) {
      if (split === 'original') continue;
      out.set(
        split,
        list.filter((t) => !dropped.includes(t)).map((t) => replaced.get(t) ?? t),
      );
    }
  }
  return out;
}

/** Says, once per repository, where no test spec was found and the default command is assumed. */
function sayMissingSpecs(tasks: Task[], say: (line: string) => void): void {
  const unknown = new Map<string, { count: number; origin: string }>();
  for (const t of tasks) {
    const spec = taskKind(t).testSpec?.(t);
    if (!spec || spec.given) continue;
    const seen = unknown.get(spec.group) ?? { count: 0, origin: spec.origin };
    seen.count++;
    unknown.set(spec.group, seen);
  }
  for (const [, { count, origin }] of unknown) say(`  ${origin} (${count} task${count === 1 ? '' : 's'})`);
}

/** Removes, from every split, the tasks whose image the engine lacks, and reports each missing image. */
async function leaveOutMissingImages(
  dataset: string,
  tasks: DatasetTasks,
  missingImages: (images: string[]) => Promise<string[]>,
  onMissing?: (missing: MissingImage) => void,
): Promise<void> {
  const byImage = tasksByImage([...tasks.values()].flat());
  const missing = new Set(await missingImages([...byImage.keys()]));
  if (missing.size === 0) return;
  for (const image of missing) onMissing?.({ dataset, image, taskIds: [...new Set(byImage.get(image)!.map((t) => t.id))] });
  for (const [split, list] of tasks)
    tasks.set(
      split,
      list.filter((t) => !missing.has(taskImage(t))),
    );
}
