import type { SweTask } from '../../tasks/task.js';
import { auditSweVariants } from '../audit/swe.js';
import { flipsOutcome } from '../outcome.js';
import { sweRow } from '../rows.js';
import { mutateWithModel } from '../swe/model-fallback.js';
import { mutateSweTestPatch } from '../swe/mutate.js';
import { validateSweVariants } from '../validate/swe.js';
import type { MutationKindParts } from './types.js';

/** SWE-bench repositories: one graded test of the test patch edited, validated with the gold and an empty patch. */
export const SWE_MUTATION: MutationKindParts<SweTask> = {
  name: 'swe',
  mutate: async (task, type, seed, extras) => {
    const input = {
      id: task.id,
      testPatch: task.originalTestPatch,
      failToPass: task.failToPass,
      ...(extras.baseFiles ? { baseFiles: extras.baseFiles } : {}),
      ...(extras.skip ? { skip: extras.skip } : {}),
    };
    let m = await mutateSweTestPatch(input, type, seed);
    if (!m.ok && extras.model) {
      const asked = await mutateWithModel(extras.model.client, extras.model.template, input, type, seed);
      m = asked.ok ? asked : { ok: false, reason: `${m.reason}; ${asked.reason}` };
      if (m.ok && extras.skip?.has(m.testPatch)) m = { ok: false, reason: `the model's variant was tried already` };
    }
    if (!m.ok) return m;
    // A case the variant adds (a duplicated parametrize row) is graded with the rest.
    const failToPass = m.addedTests ? [...task.failToPass, ...m.addedTests] : task.failToPass;
    const mutation = m.addedTests?.length ? { ...m.record, addedTests: m.addedTests } : m.record;
    return { ok: true, task: { ...task, variant: type, testPatch: m.testPatch, failToPass, mutation } };
  },
  readsBaseFiles: true,
  unfixedMayPass: flipsOutcome,
  canValidate: () => true,
  validate: (variants, options) => validateSweVariants(variants, options),
  rejectedBy: 'the gold or an empty patch',
  row: sweRow,
  audit: auditSweVariants,
};
