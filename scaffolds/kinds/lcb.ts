import type { LcbTask } from '../../tasks/task.js';
import { LcbEnvironment } from '../env/lcb.js';
import type { ScaffoldKindParts } from './types.js';

/** LiveCodeBench functions: `func.py` and `test.py` in a work dir; the minimal scaffold grades each answer. */
export const LCB_SCAFFOLD: ScaffoldKindParts<LcbTask> = {
  name: 'lcb',
  environment: (input) =>
    new LcbEnvironment({
      task: input.task,
      scaffold: input.scaffold,
      access: input.access,
      sandbox: input.sandbox,
      gradeTimeoutMs: input.limits.toolTimeoutMs,
      signal: input.signal,
    }),
  minimalLoop: 'answer',
};
