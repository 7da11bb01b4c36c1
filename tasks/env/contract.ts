import type { Task } from '../task.js';
import { taskKind } from '../kinds/registry.js';
import type { ContractBase } from '../kinds/types.js';
import type { LcbContract } from './lcb-contract.js';
import { describeLimits, taskSandboxLimits } from './sandbox-limits.js';
import type { SweContract } from './swe-contract.js';

/** The built-in kinds' contracts: `gradeLcb` and `gradeSwe` are the graders that take one. */
export type GradingContract = LcbContract | SweContract;

const made = new WeakMap<object, ContractBase>();

/** A task's grading contract, made once per task object: plain data, printable and comparable. */
export function gradingContract(task: Task | { kind: string; id: string; variant: string }): ContractBase {
  let contract = made.get(task);
  if (!contract) {
    contract = taskKind(task).contract(task as never);
    made.set(task, contract);
  }
  return contract;
}

/**
 * A task's contract as data, for a person or a diff to read: what its grader will run, in which image under which
 * default limits, and how it reads the result. Two tasks graded alike give equal values.
 */
export function gradingContractData(task: Task | { kind: string; id: string; variant: string }): Record<string, unknown> {
  const contract = gradingContract(task);
  const limits = describeLimits(taskSandboxLimits(task));
  return { kind: contract.kind, image: contract.image, limits, ...taskKind(task).contractData(contract) };
}
