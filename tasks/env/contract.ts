import type { Task } from '../task.js';
import { lcbContract, type LcbContract } from './lcb-contract.js';
import { sweContract, type SweContract } from './swe-contract.js';

/** A task's grading contract, by its kind: `gradeLcb` and `gradeSwe` are the graders that take one. */
export type GradingContract = LcbContract | SweContract;

export function gradingContract(task: Task): GradingContract {
  return task.kind === 'swe' ? sweContract(task) : lcbContract(task);
}
