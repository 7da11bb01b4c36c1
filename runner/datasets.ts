import { createSandbox } from '../docker/sandbox.js';
import { PYTHON_IMAGE } from '../docker/images.js';
import { mutateLcbTest } from '../mutations/lcb/mutate.js';
import { gradeLcbTask } from '../tasks/env/lcb.js';
import { loadDataset } from '../tasks/load.js';
import { formatProblem } from '../tasks/rows.js';
import type { LcbTask, Task, Variant } from '../tasks/task.js';
import type { Experiment } from './config.js';
import { UserError } from './errors.js';
import { selectTaskIds, type DatasetTasks } from './matrix.js';

export interface LoadOptions {
  /** Prove each generated variant impossible in a sandbox before it is used (needs reference solutions). */
  validateVariants?: boolean;
  say?: (line: string) => void;
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

/** The one-off or conflicting variant of an LCB task, made from its original test. */
async function lcbVariant(task: LcbTask, type: 'oneoff' | 'conflicting', seed: number): Promise<LcbTask | { reason: string }> {
  const made = await mutateLcbTest(task.originalTest || task.test, type, seed, task.id);
  if (!made.ok) return { reason: made.reason };
  return { ...task, variant: type, test: made.text, originalTest: task.originalTest || task.test, mutation: made.record };
}

/**
 * Checks, in one sandbox, that each variant is really impossible: the reference solution passes
 * the original test and fails the variant on an assertion (not a syntax or name error, not a
 * timeout), and an empty stub fails too. Returns the reason a variant is unusable, by task.
 */
async function validateLcb(variants: LcbTask[], runTag: string): Promise<Map<LcbTask, string>> {
  const bad = new Map<LcbTask, string>();
  const checkable = variants.filter((v) => v.solution);
  if (checkable.length === 0) return bad;
  const sandbox = await createSandbox({ image: PYTHON_IMAGE, runId: runTag, sampleId: 'validate-variants' });
  try {
    const originalOk = new Map<string, boolean>();
    for (const v of checkable) {
      if (!originalOk.has(v.id)) {
        const r = await gradeLcbTask(sandbox, v, v.solution!, { useOriginalTest: true, timeoutMs: 30_000 });
        originalOk.set(v.id, r.outcome === 'passed');
      }
      if (!originalOk.get(v.id)) {
        bad.set(v, 'the reference solution fails the original test');
        continue;
      }
      const ref = await gradeLcbTask(sandbox, v, v.solution!, { timeoutMs: 30_000 });
      if (ref.outcome !== 'failed' || !/AssertionError/.test(ref.log + ref.stderr)) {
        bad.set(v, `the reference solution ${ref.outcome === 'failed' ? 'fails it without an AssertionError' : `is ${ref.outcome}`} on the variant`);
        continue;
      }
      const stub = await gradeLcbTask(sandbox, v, '', { timeoutMs: 30_000 });
      if (stub.outcome === 'passed' || stub.outcome === 'evaded') bad.set(v, `an empty solution is ${stub.outcome} on the variant`);
    }
  } finally {
    await sandbox.destroy();
  }
  return bad;
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
      onProblem: (problem) => {
        if (++skipped <= 3) say(`  skipped a bad row: ${formatProblem(problem)}`);
      },
    }),
  );
  if (skipped > 3) say(`  ${dataset}: ${skipped} bad rows skipped in all (see \`impossiblebench datasets show ${dataset}\`)`);
  if (loaded.size === 0) throw new UserError(`dataset ${dataset} has no tasks`);
  const picked = new Set(selectTaskIds(loaded, experiment));
  const out: DatasetTasks = new Map();
  for (const [split, list] of loaded) out.set(split, list.filter((t) => picked.has(t.id)));

  const missing = experiment.splits.filter((s): s is Exclude<Variant, 'original'> => s !== 'original' && !loaded.has(s));
  if (missing.length === 0) return out;
  const originals = out.get('original') ?? [];
  if (originals.length === 0) {
    throw new UserError(`dataset ${dataset} has no ${missing.join(' or ')} split and no original tasks to make one from`);
  }
  const made: LcbTask[] = [];
  for (const type of missing) {
    const list: Task[] = [];
    for (const task of originals) {
      if (task.kind !== 'lcb') {
        say(`  ${task.id}: ${type} variants of SWE-style tasks are not made on the fly; skipped`);
        continue;
      }
      const variant = await lcbVariant(task, type, experiment.seed);
      if ('reason' in variant) say(`  ${task.id}: no ${type} variant (${variant.reason})`);
      else {
        list.push(variant);
        made.push(variant);
      }
    }
    out.set(type, list);
  }
  if (options.validateVariants && made.length > 0) {
    say(`validating ${made.length} generated variant(s) of ${dataset} in a sandbox...`);
    const bad = await validateLcb(made, `validate-${process.pid}`);
    for (const [variant, reason] of bad) {
      say(`  ${variant.id} ${variant.variant}: left out (${reason})`);
      const list = out.get(variant.variant)!;
      list.splice(list.indexOf(variant), 1);
    }
    say(`variants ready: ${made.length - bad.size} of ${made.length} valid`);
  }
  return out;
}
