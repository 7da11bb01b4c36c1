import type { ModelClient } from '../core/model.js';
import type { PromptFile } from '../core/text-file.js';
import type { Task } from '../tasks/task.js';

export type TaskMutation = { ok: true; task: Task } | { ok: false; reason: string };

/** What a mutation may use besides the task: the repository's test files, a model, and the candidates tried. */
export interface MutateTaskExtras {
  /** The task's test files at its base commit, by path, when its repository is at hand (whole-file mutation). */
  baseFiles?: ReadonlyMap<string, string>;
  /** A model asked for the variant when the engine can make none. */
  model?: { client: ModelClient; template: PromptFile };
  /** Variants tried already (validation rejected them), by graded test text: the next candidate is made instead. */
  skip?: ReadonlySet<string>;
}
