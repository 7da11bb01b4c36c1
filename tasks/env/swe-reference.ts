import type { ExecResult } from '../../docker/types.js';
import type { SweReference, SweTask } from '../task.js';
import { sweContract, type SweGradeResult } from './swe-contract.js';

/** A task as its reference run grades it: the original tests, whatever split the task is of. */
export function referenceTask(task: SweTask): SweTask {
  const { reference: _, mutation: __, ...rest } = task;
  return { ...rest, variant: 'original', testPatch: task.originalTestPatch };
}

/**
 * Reads a task's reference run (the gold patch on the original tests): what it showed of each graded test, and
 * whether it resolves the task as SWE-bench grades it. A skipped PASS_TO_PASS test is no regression there, since the
 * run is its own reference; a skipped FAIL_TO_PASS test resolves nothing, so such a task is environment-broken.
 */
export function readReferenceRun(task: SweTask, run: ExecResult): { grade: SweGradeResult; reference: SweReference } {
  const original = referenceTask(task);
  const seen = sweContract(original).readReport(run);
  const reference: SweReference = { statuses: { ...seen.passToPass, ...seen.failToPass }, skipReasons: {} };
  const grade = sweContract({ ...original, reference }).readReport(run);
  return { grade, reference };
}
