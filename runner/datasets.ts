import { verdictStage } from '../mutations/dataset.js';
import { mutateTask } from '../mutations/task.js';
import { validateLcbVariants } from '../mutations/validate/lcb.js';
import { type SweValidationOptions, validateSweVariants } from '../mutations/validate/swe.js';
import { sweTestSpec } from '../tasks/env/swe-specs.js';
import { taskImage, tasksByImage } from '../tasks/images.js';
import { loadDataset } from '../tasks/load.js';
import { formatProblem } from '../tasks/rows.js';
import type { LcbTask, SweTask, Task } from '../tasks/task.js';
import type { Variant } from '../core/record.js';
import type { SandboxBackend } from '../docker/types.js';
import type { Experiment } from './config.js';
import { UserError } from '../core/errors.js';
import { selectTaskIds, type DatasetTasks } from './matrix.js';

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
    const dropped = await validateMade(made, say, dataset, options);
    for (const variant of dropped) {
      const list = out.get(variant.variant)!;
      list.splice(list.indexOf(variant), 1);
    }
  }
  return out;
}

/** Says, once per repository, where no test spec was found and the default command is assumed. */
function sayMissingSpecs(tasks: Task[], say: (line: string) => void): void {
  const unknown = new Map<string, { count: number; origin: string }>();
  for (const t of tasks) {
    if (t.kind !== 'swe') continue;
    const spec = sweTestSpec(t);
    if (spec.given) continue;
    const seen = unknown.get(t.repo) ?? { count: 0, origin: spec.origin };
    seen.count++;
    unknown.set(t.repo, seen);
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

/**
 * Proves generated variants impossible in sandboxes (the reference passes the original and fails
 * the variant on the mutated assertion; an empty solution fails too) and returns those that are
 * not. Variants with nothing to check against (no reference solution) are kept and said so.
 */
async function validateMade(
  made: Task[],
  say: (line: string) => void,
  dataset: string,
  options: Pick<LoadOptions, 'signal' | 'backend' | 'imageFor'>,
): Promise<Task[]> {
  const { signal, backend, imageFor } = options;
  const lcb = made.filter((t): t is LcbTask => t.kind === 'lcb' && t.solution !== undefined);
  const swe = made.filter((t): t is SweTask => t.kind === 'swe');
  const checkable = [...lcb, ...swe];
  const unchecked = made.length - checkable.length;
  say(`validating ${checkable.length} generated variant(s) of ${dataset} in sandboxes...`);
  // Labelled so `cleanup` finds the validation sandboxes too, should the process die meanwhile.
  const runId = `validate-${process.pid}`;
  // The validators answer in input order.
  const verdicts = [
    ...(lcb.length ? await validateLcbVariants(lcb, { runId, backend, ...(signal ? { signal } : {}) }) : []).map((v, i) => [lcb[i]!, v] as const),
    ...(swe.length ? await validateSweVariants(swe, { runId, backend, ...(signal ? { signal } : {}), ...(imageFor ? { imageFor } : {}) }) : []).map(
      (v, i) => [swe[i]!, v] as const,
    ),
  ];
  const dropped: Task[] = [];
  const byStage = { validate: 0, environment: 0, unvalidated: 0, mutate: 0 };
  for (const [task, verdict] of verdicts) {
    if (verdict.ok) continue;
    dropped.push(task);
    byStage[verdictStage(verdict)]++;
    say(`  ${task.id} ${task.variant}: left out (${verdict.reason ?? 'not impossible'})`);
  }
  const apart = [
    byStage.validate ? `${byStage.validate} not impossible` : '',
    byStage.environment ? `${byStage.environment} whose task does not work in its environment` : '',
    byStage.unvalidated ? `${byStage.unvalidated} that could not be checked` : '',
  ].filter(Boolean);
  say(
    `variants ready: ${checkable.length - dropped.length} of ${checkable.length} proven impossible` +
      (apart.length ? ` (left out: ${apart.join(', ')})` : '') +
      (unchecked ? `; ${unchecked} without a reference solution used unchecked` : ''),
  );
  return dropped;
}
