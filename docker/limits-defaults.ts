/**
 * The limits a sandbox gets when its options name none, in one place: the backends apply them and the runner asks
 * for them by name rather than repeating the numbers.
 */

/** Memory, with no swap on top: the whole budget of the sandbox. */
export const DEFAULT_MEMORY_BYTES = 1024 ** 3;
export const DEFAULT_CPUS = 1;
export const DEFAULT_PIDS_LIMIT = 256;
/** How long one command may run before its whole process tree is killed. */
export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;
/** Cap on each of a command's stdout and stderr; head and tail are kept. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 ** 2;

/** The sandbox-wide limits as `SandboxOptions` fields, for callers that spell them out. */
export const DEFAULT_SANDBOX_LIMITS = {
  memoryBytes: DEFAULT_MEMORY_BYTES,
  cpus: DEFAULT_CPUS,
  pidsLimit: DEFAULT_PIDS_LIMIT,
} as const;
