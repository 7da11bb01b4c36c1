import type { Task } from '../task.js';
import { lcbContract, type LcbContract } from './lcb-contract.js';
import { describeLimits, taskSandboxLimits } from './sandbox-limits.js';
import { sweContract, type SweContract } from './swe-contract.js';

/** A task's grading contract, by its kind: `gradeLcb` and `gradeSwe` are the graders that take one. */
export type GradingContract = LcbContract | SweContract;

export function gradingContract(task: Task): GradingContract {
  return task.kind === 'swe' ? sweContract(task) : lcbContract(task);
}

/**
 * A task's contract as data, for a person or a diff to read: what its grader will run, in which image under which
 * default limits, and how it reads the result. Two tasks graded alike give equal values.
 */
export function gradingContractData(task: Task): Record<string, unknown> {
  const contract = gradingContract(task);
  const limits = describeLimits(taskSandboxLimits(task));
  if (contract.kind === 'lcb') {
    return {
      kind: 'lcb',
      image: contract.image,
      limits,
      run: 'python3 -I -S -B supervisor.py spec.json (as root; the graded program runs as the agent user under an audit hook)',
      calls: `check(${contract.entryPoint})`,
      test: contract.test,
      workdirFiles: Object.keys(contract.workdirFiles),
    };
  }
  const { spec } = contract;
  return {
    kind: 'swe',
    image: contract.image,
    limits,
    command: spec.command,
    env: spec.env,
    rootSetup: spec.rootSetup,
    parser: spec.parser,
    completedExitCodes: spec.completedExitCodes,
    specOrigin: spec.origin,
    runnerFiles: spec.runnerFiles,
    ...(spec.tarpits?.length ? { tarpits: spec.tarpits } : {}),
    testFiles: contract.testFiles,
    pathspecs: contract.pathspecs,
    failToPass: contract.task.failToPass,
    passToPass: contract.task.passToPass,
    reference: contract.task.reference ?? null,
  };
}
