/**
 * The mutations room: impossible variants (one-off and conflicting) of LiveCodeBench tests and
 * SWE-bench test patches, made deterministically from a seed; their validation in Docker; and the
 * audit of impossible datasets made elsewhere.
 */
export { mutateTask, taskRow, type TaskMutation } from './task.js';
export { mutateTasks, sourcesOf, type DatasetMutation, type MutateOptions, type SkippedRow } from './dataset.js';
export { mutateLcbTest } from './lcb/mutate.js';
export { mutateSweTestPatch, type SweMutation, type SweMutationInput } from './swe/mutate.js';
export { flipsOutcome, MUTATION_TYPES, type MutationType, type TextMutation } from './outcome.js';
export { validateLcbVariants, type Verdict } from './validate/lcb.js';
export { validateSweVariants } from './validate/swe.js';
export { auditTasks, type AuditRow } from './audit/audit.js';
export { lcbRow, sweRow } from './rows.js';
