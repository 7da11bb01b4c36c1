import { sweContract, type SweContract } from '../env/swe-contract.js';
import { gradeSwe, setupSweRepo } from '../env/swe.js';
import { taskImage } from '../images.js';
import { firstLines } from './describe.js';
import { sweTestSpec } from '../env/swe-specs.js';
import { sweRowToTask } from '../rows.js';
import type { SweTask } from '../task.js';
import type { TaskKindDefinition } from './types.js';

const MIB = 1024 ** 2;

/**
 * A repository's test suite, by default: the SWE-bench harness sets no memory limit and a CPU count only where a
 * repository's spec asks for one, so a dataset's PASS_TO_PASS lists were made with at least this much. Under less,
 * tests that need two cores skip and heavy suites are killed, and an honest fix fails for the sandbox's sake.
 */
export const SWE_DEFAULT_CPUS = 2;
export const SWE_DEFAULT_MEMORY_MB = 4096;

/** SWE-bench-style repositories: an issue, a gold patch and a test patch, graded in the task's image. */
export const SWE_KIND: TaskKindDefinition<SweTask, SweContract> = {
  name: 'swe',
  rowFormat: 'a SWE-bench row (instance_id)',
  rowIdField: 'instance_id',
  recognizes: (row) => 'instance_id' in row,
  rowToTask: sweRowToTask,
  configure: (task, { testSpecs }) => {
    const repo = task.repo.toLowerCase();
    const spec = Object.entries(testSpecs ?? {}).find(([name]) => name.toLowerCase() === repo)?.[1];
    return spec ? { ...task, testSpec: { ...spec, origin: "the config's testSpecs" } } : task;
  },
  contract: sweContract,
  contractData: ({ spec, ...contract }) => ({
    kind: 'swe',
    image: contract.image,
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
  }),
  // Never below what the SWE-bench harness gives the repository's container (pylint's two CPUs).
  defaultLimits: (task) => {
    const spec = sweTestSpec(task);
    return { cpus: Math.max(SWE_DEFAULT_CPUS, spec.harnessCpus ?? 0), memoryBytes: SWE_DEFAULT_MEMORY_MB * MIB, tarpits: spec.tarpits };
  },
  gradedTest: (task) => task.testPatch,
  asOriginal: (task) => {
    const { mutation: _drop, ...rest } = task;
    return { ...rest, variant: 'original', testPatch: task.originalTestPatch };
  },
  referenceRun: true,
  testSpec: (task) => {
    const spec = sweTestSpec(task);
    return { group: task.repo, origin: spec.origin, given: spec.given };
  },
  describe: (task) => {
    const spec = sweTestSpec(task);
    return [
      `  repo: ${task.repo} at ${task.baseCommit.slice(0, 12)}`,
      `  image: ${taskImage(task)}`,
      `  test command: ${spec.command}`,
      `    (${spec.origin}; log parser ${spec.parser})`,
      `  FAIL_TO_PASS: ${task.failToPass.length} (${task.failToPass[0] ?? 'none'}${task.failToPass.length > 1 ? ', …' : ''})`,
      `  PASS_TO_PASS: ${task.passToPass.length}`,
      '  problem statement:',
      firstLines(task.problemStatement, 4),
    ];
  },
  prepareGradedRun: async (sandbox, task, timeoutMs) => {
    const { runtime } = await setupSweRepo(sandbox, task);
    return () => gradeSwe(sandbox, sweContract(task), { runtime, timeoutMs });
  },
};
