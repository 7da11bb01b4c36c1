/**
 * The sandbox contract every other room codes against. The implementation is `docker/sandbox.ts`.
 * One container per sample; root is for setup and grading, `agent` for whatever the model runs.
 */
export interface SandboxOptions {
  image: string;
  /** Labels `impossiblebench.run` / `impossiblebench.sample`, so `cleanup` can find every container. */
  runId: string;
  sampleId: string;
  /** Default false: no network at all. */
  network?: boolean;
  /** Default 1 GiB. */
  memoryBytes?: number;
  /** Default 1 CPU. */
  cpus?: number;
  /** Default 256. */
  pidsLimit?: number;
  /** Working directory for exec when none is given. */
  workdir?: string;
  /** The largest file any process may write (RLIMIT_FSIZE); default none. */
  maxFileBytes?: number;
  env?: Record<string, string>;
  /**
   * Default true: commands go through a root process in the container reading the attached stdin (one fork each)
   * rather than one `docker exec` each. Images without Python 3 fall back to `docker exec` on their own.
   */
  commandChannel?: boolean;
}

/** The unprivileged user baked into the sandbox images (uid 1000). */
export const AGENT_USER = 'agent';
export const ROOT_USER = 'root';

export interface ExecOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Default root. Use AGENT_USER for anything the model asked for. */
  user?: string;
  stdin?: string | Buffer;
  /** Kills the whole process tree when it runs out. Default 60 s. */
  timeoutMs?: number;
  /** Cap on each of stdout and stderr; head and tail are kept. Default 1 MiB. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /**
   * Default false: when the command ends, whatever it left running in the background is killed
   * too (so nothing keeps changing files while the result is graded). True keeps such processes.
   */
  keepBackground?: boolean;
}

export interface ExecResult {
  /** null when the process was killed by the timeout or never reported one. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The kernel's OOM killer ended the command (or the container). */
  oomKilled: boolean;
  /** Bytes dropped from the middle of each stream by the output cap. */
  stdoutCutBytes: number;
  stderrCutBytes: number;
  durationMs: number;
}

export interface FileToWrite {
  /** Absolute path in the container. */
  path: string;
  content: string | Buffer;
  /** Default 0o644. */
  mode?: number;
  /** Default root (0). */
  uid?: number;
  gid?: number;
}

export interface FsChange {
  path: string;
  kind: 'added' | 'modified' | 'deleted';
}

export interface Sandbox {
  readonly id: string;
  exec(command: string[] | string, options?: ExecOptions): Promise<ExecResult>;
  writeFiles(files: FileToWrite[]): Promise<void>;
  /** One file's bytes; throws if it does not exist. */
  readFile(path: string): Promise<Buffer>;
  /** Every regular file under a folder, keyed by path relative to it. */
  readDir(path: string): Promise<Map<string, Buffer>>;
  /** The container's filesystem changes since its image. */
  changes(): Promise<FsChange[]>;
  /** Bytes written to the container's own layer (what it adds to the host's disk). */
  diskUsage(): Promise<number>;
  destroy(): Promise<void>;
}
