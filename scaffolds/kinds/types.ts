import type { TaskBase } from '../../tasks/kinds/types.js';
import type { AgentEnvironment } from '../env/types.js';
import type { Instructions } from '../prompts.js';
import type { AgentRunInput } from '../types.js';

/**
 * What the scaffolds room knows of one kind of task (registered under the name of its `tasks/kinds/` definition): the
 * environment the agent works in, how the instructions read for it, and which loop its minimal scaffold is.
 */
export interface ScaffoldKindParts<T extends TaskBase = TaskBase> {
  readonly name: string;
  /** The task in the sandbox the runner made, as the loops see it. */
  environment(input: AgentRunInput & { task: T }): AgentEnvironment;
  /** The instructions as this kind gives them (a built-in wording adapted to its setting); default as given. */
  instructions?(given: Instructions): Instructions;
  /**
   * The loop of the minimal scaffold: `answer` grades the python block of each answer; `bash` runs commands in the
   * work dir until the agent submits (a task with no answer to grade, such as a repository).
   */
  readonly minimalLoop: 'answer' | 'bash';
}
