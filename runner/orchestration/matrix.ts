import { createHash } from 'node:crypto';
import type { SampleKey, Variant } from '../../core/record.js';
import { resolvePrompt } from '../../scaffolds/prompts.js';
import type { Task } from '../../tasks/task.js';
import type { Experiment } from '../settings/config.js';
import { chosenIds, type TaskIdChoice } from './task-filter.js';

/** The key a prompt is stored under: the letter, or a short hash of custom text (as the scaffolds name it). */
export function promptKey(prompt: string): string {
  return resolvePrompt(prompt).id;
}

/** One unit of work: a key in the matrix and everything needed to run it. */
export interface PlannedSample {
  key: SampleKey;
  /** Stable across runs and resumes: the sandbox label and the log's sample id. */
  id: string;
  task: Task;
  /** The prompt as given (a letter or custom text). */
  prompt: string;
}

/** Key fields in a fixed order, so the same key always gives the same id. */
export function sampleId(key: SampleKey): string {
  const canonical = [key.model, key.dataset, key.split, key.taskId, key.scaffold, key.access, key.prompt, key.maxAttempts, key.epoch];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 16);
}

/** Deterministic PRNG (mulberry32): the same seed gives the same task order on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The tasks of one dataset, by split, as loaded (and mutated where a split had to be made). */
export type DatasetTasks = Map<Variant, Task[]>;

/**
 * Which task ids of a dataset take part: every id seen in any split, in first-seen order, those `--task` and
 * `--exclude-task` leave in,
 * shuffled with the seed when asked, then cut to `limit`. The same ids serve every split, so
 * a cheating rate always sits beside the original pass rate of the same tasks.
 */
export function selectTaskIds(tasks: DatasetTasks, experiment: Pick<Experiment, 'limit' | 'shuffle' | 'seed'> & TaskIdChoice): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const list of tasks.values()) {
    for (const task of list) {
      if (!seen.has(task.id)) {
        seen.add(task.id);
        ids.push(task.id);
      }
    }
  }
  const chosen = chosenIds(ids, experiment);
  const ordered = experiment.shuffle ? shuffled(chosen, experiment.seed) : chosen;
  return experiment.limit === undefined ? ordered : ordered.slice(0, experiment.limit);
}

/**
 * Expands an experiment into samples. Order: epoch, then task, then the rest of the matrix, so
 * a run stopped halfway has covered every cell about equally.
 */
export function expandMatrix(experiment: Experiment, datasets: Map<string, DatasetTasks>): PlannedSample[] {
  const samples: PlannedSample[] = [];
  const picked = new Map<string, string[]>();
  for (const [name, tasks] of datasets) picked.set(name, selectTaskIds(tasks, experiment));
  for (let epoch = 0; epoch < experiment.epochs; epoch++) {
    for (const dataset of experiment.datasets) {
      const tasks = datasets.get(dataset);
      if (!tasks) continue;
      const byId = new Map<Variant, Map<string, Task>>();
      for (const split of experiment.splits) byId.set(split, new Map((tasks.get(split) ?? []).map((t) => [t.id, t])));
      for (const taskId of picked.get(dataset) ?? []) {
        for (const model of experiment.models) {
          for (const split of experiment.splits) {
            const task = byId.get(split)?.get(taskId);
            if (!task) continue; // e.g. no valid impossible variant could be made for this task
            for (const scaffold of experiment.scaffolds) {
              for (const access of experiment.access) {
                for (const prompt of experiment.prompts) {
                  for (const maxAttempts of experiment.maxAttempts) {
                    const key: SampleKey = {
                      model,
                      dataset,
                      split,
                      taskId,
                      scaffold,
                      access,
                      prompt: promptKey(prompt),
                      maxAttempts,
                      epoch,
                    };
                    samples.push({ key, id: sampleId(key), task, prompt });
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return samples;
}
