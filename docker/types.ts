/**
 * The sandbox contract every other room codes against, in parts: a `Sandbox` runs commands and moves files (all a
 * sample uses); a backend (`SandboxBackend`) makes, lists and removes sandboxes, keeps their images (`ImageStore`, and
 * `ImageDerivation` where it can save a sandbox as an image) and, with several engines only, places sandboxes
 * (`SandboxPlacement`). One sandbox per sample; root is for setup and grading, `agent` for whatever the model runs.
 * Commands run as a user named here, never a numeric id, so a backend needs only the image's user database.
 *
 * What lives where in docker/:
 * - the contract: `types.ts`; backends registered by name: `backends.ts`; backend-neutral parts: `image-names.ts`,
 *   `limits-defaults.ts`, `deferred.ts`, `floor.ts`, `user-cleanup.ts`, `registry.ts` (layer sizes over HTTP),
 *   `errors.ts`, `testing.ts`; in-process sandboxes for tests (`testing/memory-backend.ts`, `testing/memory-sandbox.ts`:
 *   files in memory, commands answered by the test's handlers, registered by tests alone); several engines, each a backend, as one backend: `pool.ts` (its engines and their slots
 *   in `pool-engines.ts`, its sandboxes and images in `pool-sandbox.ts` and `pool-images.ts`, which engine holds which
 *   image in `placement.ts`).
 * - the Docker backend: `docker-backend.ts` (the interface over the rest, on one engine); Docker engines as a pool
 *   (`docker-pool.ts`, their addresses and capacities in `hosts.ts`, a second engine for tests in
 *   `testing/second-engine.ts`); the engine connection (`engine.ts`) and the deadline of every call on it
 *   (`deadline.ts`); one container per sandbox (`sandbox.ts`, its lifecycle; `sandbox-container.ts`, what its parts
 *   share; commands in `sandbox-exec.ts`, `launch.ts`, `output.ts`, `demux.ts`; killing them and out-of-memory kills in
 *   `sandbox-kill.ts`, `kill.ts`; files in `sandbox-files.ts`; changes in `sandbox-changes.ts`); its command channel
 *   (`channel*.ts`) and the changes walk it runs (`fs-changes.ts`); files as tar (`archive.ts`); labels, listing and
 *   removal (`labels.ts`, `cleanup.ts`); images (`images.ts`, `pull.ts`, `build/`, and those saved from sandboxes:
 *   `derived-images.ts`).
 * `boundary.test.ts` fails if code outside docker/ imports dockerode or a Docker-only module.
 */
import type { Duplex } from 'node:stream';
import type { BuildOptions, BuildOutcome } from './build/types.js';
export interface SandboxOptions {
  image: string;
  /** Labels `impossiblebench.run` / `impossiblebench.sample`, so `cleanup` can find every container. */
  runId: string;
  sampleId: string;
  /** Default false: no network at all. */
  network?: boolean;
  /**
   * IPv4 addresses that connections hang on, as on the internet where an address drops packets (some test suites time
   * a connect out against one); the sandbox still has no network.
   */
  tarpits?: readonly string[];
  /** Default 1 GiB (the defaults are in `limits-defaults.ts`). */
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
  /**
   * Single host files shown read-only inside the sandbox (an agent program's binary): regular files only, never a
   * folder, the engine's socket or anything under the host's home. On a remote engine the path is the engine host's.
   */
  readOnlyFiles?: ReadOnlyFile[];
  /** A slot `placement.reserve` took for this sandbox: used when it is on an engine that holds the image, else given back. */
  slot?: SandboxSlot;
}

export interface ReadOnlyFile {
  /** Absolute path on the engine's host. */
  source: string;
  /** Absolute path inside the sandbox. */
  target: string;
}

/** A place for one sandbox, held on an engine of a pool until a create uses it or it is given back. */
export interface SandboxSlot {
  readonly image: string;
  /** Gives the slot back unless a create used it; once only. */
  release(): void;
}

export interface ExecOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** A user name of the image (never a numeric id); default root. Use AGENT_USER (core/sandbox.ts) for anything the model asked for. */
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
  /** Default root (0). Numeric, as in the tar header the file travels in (see AGENT_UID in core/sandbox.ts). */
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
  /**
   * The filesystem's changes since its image: read by the command channel's walk inside the sandbox (ctimes against
   * the image's listing, `fs-changes.ts`), which any backend can run; Docker falls back to `docker diff` only when
   * the sandbox has no command channel.
   */
  changes(): Promise<FsChange[]>;
  /**
   * The engine's id of the image the sandbox was made from (its content, not a tag), when the backend knows it: what
   * facts learned once about a pristine image may be kept under.
   */
  imageId?(): Promise<string | undefined>;
  /** Bytes written to the sandbox's own layer (what it adds to the host's disk). */
  diskUsage(): Promise<number>;
  /**
   * Opens loopback port `port` inside the sandbox, carried by the command channel (the sandbox keeps no network):
   * each connection made to it there is joined to a socket `connect` opens on the host. Only where the sandbox has a
   * command channel; it throws otherwise.
   */
  forwardPort?(port: number, connect: () => Duplex): Promise<void>;
  destroy(): Promise<void>;
  /**
   * Why the engine running this sandbox is gone, or undefined while it answers (only where engines can fail apart
   * from the run, as in a pool). Whatever a sample recorded once its engine is gone is not the model's doing.
   */
  engineLost?(): Promise<Error | undefined>;
}

/** One sandbox a backend knows of, found by its labels (so also one whose creating process died). */
export interface SandboxInfo {
  id: string;
  runId: string;
  sampleId: string;
  /** The backend's own word: `running`, `exited`, `created`, … */
  state: string;
  created: Date;
  /** Bytes written to the sandbox's own layer; only when the listing asked for it (it costs the engine a walk). */
  diskBytes?: number;
  /** The engine it runs on, when the backend is a pool of several. */
  engine?: string;
}

/** An engine of a pool that did not answer a call, and why. */
export interface UnreachableEngine {
  engine: string;
  error: string;
}

export interface RemoveResult {
  removed: SandboxInfo[];
  failed: Array<{ sandbox: SandboxInfo; error: string }>;
  /** Engines of a pool that did not answer, so whatever they hold was neither listed nor removed. */
  unreachable?: UnreachableEngine[];
}

export type ImageState = 'present' | 'missing' | 'stale';

export interface ImageStatus {
  name: string;
  state: ImageState;
  /** The recipe label on the image, if any (images made by hand carry none). */
  recipe?: string;
  id?: string;
  sizeBytes?: number;
  created?: string;
}

/** How far one pull has come: bytes of the layers seen so far (the engine reports each layer as it starts it). */
export interface PullProgress {
  downloadedBytes: number;
  totalBytes: number;
  layersDone: number;
  layers: number;
}

/** One line of `doctor`: what was checked, and the fix when it is not fine. */
export interface BackendCheck {
  mark: 'ok' | 'warn' | 'fail';
  text: string;
  fix?: string;
  /** Further lines, e.g. every place an engine was looked for. */
  details?: string[];
}

/** The images sandboxes start from, as every backend keeps them: OCI image names, whichever backend runs them. */
export interface ImageStore {
  /** Whether an image is present, and whether an older recipe (`recipe`) made it. */
  status(name: string, recipe?: string): Promise<ImageStatus>;
  /** Which of these images are missing (on a pool: from every engine, since a sample goes where its image is). */
  missing(names: Iterable<string>): Promise<string[]>;
  /** Gets one image from its registry; resolves once the backend has it. A pool names the engine it goes to (`onEngine`). */
  pull(name: string, options?: { onProgress?: (p: PullProgress) => void; onEngine?: (engine: string) => void; signal?: AbortSignal }): Promise<void>;
  /** Makes the project's own image (PYTHON_IMAGE): present, else pulled and extended, else built offline. */
  build(options?: BuildOptions): Promise<BuildOutcome>;
  /** Names of the present images matching any of these references (`*` wildcards, as `docker images` takes). */
  list(references: string[]): Promise<string[]>;
  /** Free bytes where the backend keeps images, when that is on this machine. */
  freeSpace(): Promise<{ path: string; bytes: number } | undefined>;
}

/** Images saved from sandboxes: only backends that can save a sandbox's filesystem implement it. */
export interface ImageDerivation {
  /**
   * Saves a sandbox's filesystem as a new image, with the settings of the image it was made from, these labels and
   * the sandbox's run, on the sandbox's engine (a pool then places the image's sandboxes there).
   */
  derive(sandbox: Sandbox, name: string, labels: Record<string, string>): Promise<void>;
  /** The images `derive` made, of every run. */
  listDerived(): Promise<DerivedImage[]>;
  /** Removes images `derive` made; one already gone counts as removed. */
  removeDerived(names: string[]): Promise<void>;
}

/** A backend's images: the store every backend has, and derivation where it can. */
export type SandboxImages = ImageStore & Partial<ImageDerivation>;

/** An image made from a sandbox, and the run it was made for. */
export interface DerivedImage {
  name: string;
  runId: string;
}

/**
 * Where sandboxes go among several engines: only a backend of several (a pool, `pool.ts`) has it, and everything that
 * uses it does without when a backend has none.
 */
export interface SandboxPlacement {
  /**
   * A slot for a sandbox of this image, taken now if an engine that holds it has one free (else undefined, as when
   * whether one holds it is not known yet): a run starts the first sample that gets one, so one engine's queue does
   * not hold back the others.
   */
  reserve(image: string): SandboxSlot | undefined;
  /**
   * What `list` finds on each engine that answers, and the engines that do not: for listing what is left while one
   * engine is down (where `list` fails).
   */
  survey(filter?: { runId?: string }): Promise<{ sandboxes: SandboxInfo[]; unreachable: UnreachableEngine[] }>;
  /** Where (which engine) each missing image is missing. */
  missingWhere(names: Iterable<string>): Promise<Array<{ where: string; missing: string[] }>>;
}

/**
 * Where sandboxes come from: their lifecycle (made, listed, removed), the backend's own (connect, probe, destroy all
 * at exit), its images, and placement when it has several engines. Everything outside `docker/` reaches sandboxes
 * through this alone; a sample uses only `create` and the `Sandbox` it returns.
 */
export interface SandboxBackend {
  /** The name it is registered under (`backends.ts`). */
  readonly name: string;
  create(options: SandboxOptions): Promise<Sandbox>;
  /** Every sandbox of any run (running or not), or of one run; with each one's disk use when `diskUsage`. */
  list(filter?: { runId?: string; diskUsage?: boolean }): Promise<SandboxInfo[]>;
  /** Force-removes these sandboxes (as `list` found them); one already gone counts as removed. */
  remove(sandboxes: SandboxInfo[]): Promise<RemoveResult>;
  /** Removes every sandbox of a run (or of every run), optionally only those created before a time. */
  cleanup(filter?: { runId?: string; olderThan?: Date }): Promise<RemoveResult>;
  /** Throws a `UserError` with the fix when the backend cannot run sandboxes here. */
  connect(): Promise<void>;
  /** What `doctor` prints about the backend itself: reachable, its version, whether limits hold. */
  probe(): Promise<BackendCheck[]>;
  /** Destroys every sandbox this process created and has not destroyed (at exit). */
  destroyAll(): Promise<void>;
  images: SandboxImages;
  /** Only backends of several engines. */
  placement?: SandboxPlacement;
}
