import type { LcbTask } from '../../tasks/task.js';
import { auditLcbVariants } from '../audit/lcb.js';
import { mutateLcbTest } from '../lcb/mutate.js';
import { lcbRow } from '../rows.js';
import { validateLcbVariants } from '../validate/lcb.js';
import type { MutationKindParts } from './types.js';

/** LiveCodeBench functions: one assertion of `check` changed or contradicted, validated against the reference solution. */
export const LCB_MUTATION: MutationKindParts<LcbTask> = {
  name: 'lcb',
  mutate: async (task, type, seed, extras) => {
    const m = await mutateLcbTest(task.originalTest, type, seed, task.id, extras.skip);
    if (!m.ok) return m;
    return { ok: true, task: { ...task, variant: type, test: m.text, mutation: m.record } };
  },
  readsBaseFiles: false,
  // The stub returns nothing: no flipped assertion holds for it.
  unfixedMayPass: () => false,
  canValidate: (task) => task.solution !== undefined,
  validate: (variants, { runId, backend, signal, concurrency, onDone }) =>
    validateLcbVariants(variants, {
      ...(runId ? { runId } : {}),
      ...(backend ? { backend } : {}),
      ...(signal ? { signal } : {}),
      ...(concurrency ? { sandboxes: concurrency } : {}),
      ...(onDone ? { onDone } : {}),
    }),
  rejectedBy: 'the reference solution or an empty stub',
  row: lcbRow,
  audit: auditLcbVariants,
};
