import { taskKind } from '../kinds/registry.js';

const MIB = 1024 ** 2;

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
 * default of its kind (`tasks/kinds/`).
 */
export function taskSandboxLimits(task: { kind: string }, given: SandboxLimitSettings = {}): TaskSandboxLimits {
  const defaults = taskKind(task).defaultLimits(task as never);
  const { tarpits } = defaults;
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
