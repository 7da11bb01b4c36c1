import { sweGradeTimeoutMs } from '../../tasks/env/swe.js';
import type { SweTask } from '../../tasks/task.js';
import { SweEnvironment, sweInstructions } from '../env/swe.js';
import type { ScaffoldKindParts } from './types.js';

/** SWE-bench repositories at /testbed: an issue to resolve; the minimal scaffold is a bash-only loop there. */
export const SWE_SCAFFOLD: ScaffoldKindParts<SweTask> = {
  name: 'swe',
  environment: (input) =>
    new SweEnvironment({
      task: input.task,
      scaffold: input.scaffold,
      access: input.access,
      sandbox: input.sandbox,
      // A repository's test suite can take minutes (SWE-bench allows 30): a slow suite must not read as a failure.
      gradeTimeoutMs: sweGradeTimeoutMs(input.limits.toolTimeoutMs),
      signal: input.signal,
    }),
  instructions: sweInstructions,
  minimalLoop: 'bash',
};
