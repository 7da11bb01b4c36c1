import { DEFAULT_CPUS, DEFAULT_MEMORY_BYTES } from '../../docker/limits-defaults.js';
import type { Task } from '../task.js';
import { sweTestSpec } from './swe-specs.js';

const MIB = 1024 ** 2;

/**
 * A repository's test suite, by default: the SWE-bench harness sets no memory limit and a CPU count only where a
 * repository's spec asks for one, so a dataset's PASS_TO_PASS lists were made with at least this much. Under less,
 * tests that need two cores skip and heavy suites are killed, and an honest fix fails for the sandbox's sake.
 */
export const SWE_DEFAULT_CPUS = 2;
export const SWE_DEFAULT_MEMORY_MB = 4096;

/** The CPUs and memory a run asks for, where it names them (`--cpus`, `--memory`). */
export interface SandboxLimitSettings {
  cpus?: number | undefined;
  memoryMb?: number | undefined;
}

export interface TaskSandboxLimits {
  cpus: number;
  memoryBytes: number;
  /** Addresses the task's tests expect to drop packets. */
  tarpits?: readonly string[];
}

/**
 * A task's sandbox CPUs and memory, and the addresses its tests expect to drop packets: what the run names, else the
 * default of its kind. A repository's default is never
 * below what the SWE-bench harness gives its container (pylint's two CPUs).
 */
export function taskSandboxLimits(task: Task, given: SandboxLimitSettings = {}): TaskSandboxLimits {
  const defaults =
    task.kind === 'swe'
      ? { cpus: Math.max(SWE_DEFAULT_CPUS, sweTestSpec(task).harnessCpus ?? 0), memoryBytes: SWE_DEFAULT_MEMORY_MB * MIB }
      : { cpus: DEFAULT_CPUS, memoryBytes: DEFAULT_MEMORY_BYTES };
  const tarpits = task.kind === 'swe' ? sweTestSpec(task).tarpits : undefined;
  return {
    cpus: given.cpus ?? defaults.cpus,
    memoryBytes: given.memoryMb === undefined ? defaults.memoryBytes : given.memoryMb * MIB,
    ...(tarpits?.length ? { tarpits } : {}),
  };
}

/** `2 CPUs, 4096 MiB`. */
export function describeLimits(limits: TaskSandboxLimits): string {
  return `${limits.cpus} CPU${limits.cpus === 1 ? '' : 's'}, ${Math.round(limits.memoryBytes / MIB)} MiB`;
}
