import { DEFAULT_CPUS, DEFAULT_MEMORY_BYTES } from '../../docker/limits-defaults.js';
import { lcbContract, type LcbContract } from '../env/lcb-contract.js';
import { gradeLcb } from '../env/lcb.js';
import { firstLines } from './describe.js';
import { lcbRowToTask } from '../rows.js';
import type { LcbTask } from '../task.js';
import type { TaskKindDefinition } from './types.js';

/** LiveCodeBench-style functions in HumanEval form: a stub, a `check(candidate)` test, graded in the Python image. */
export const LCB_KIND: TaskKindDefinition<LcbTask, LcbContract> = {
  name: 'lcb',
  rowFormat: 'a LiveCodeBench row (task_id, entry_point)',
  rowIdField: 'task_id',
  recognizes: (row) => 'task_id' in row || 'entry_point' in row,
  rowToTask: lcbRowToTask,
  contract: lcbContract,
  contractData: (contract) => ({
    kind: 'lcb',
    image: contract.image,
    run: 'python3 -I -S -B supervisor.py spec.json (as root; the graded program runs as the agent user under an audit hook)',
    calls: `check(${contract.entryPoint})`,
    test: contract.test,
    workdirFiles: Object.keys(contract.workdirFiles),
  }),
  defaultLimits: () => ({ cpus: DEFAULT_CPUS, memoryBytes: DEFAULT_MEMORY_BYTES }),
  gradedTest: (task) => task.test,
  asOriginal: (task) => {
    const { mutation: _drop, ...rest } = task;
    return { ...rest, variant: 'original', test: task.originalTest };
  },
  referenceRun: false,
  describe: (task) => [
    `  entry point: ${task.entryPoint}`,
    `  reference solution: ${task.solution ? 'yes' : 'no'}`,
    '  prompt:',
    firstLines(task.prompt, 6),
    '  test:',
    firstLines(task.test, 6),
  ],
  prepareGradedRun: async (sandbox, task, timeoutMs) => () =>
    gradeLcb(sandbox, lcbContract(task), { code: task.solution ?? task.prompt, order: 'solution-before-tests' }, { timeoutMs }),
};
