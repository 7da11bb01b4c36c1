import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import type { Duplex, Readable } from 'node:stream';
import { UserError } from '../core/errors.js';
import { CommandChannel } from './channel.js';
import { forceRemove, removeWhenMadeLate } from './cleanup.js';
import { NO_TAR, readThroughChannel, writeThroughChannel } from './channel-files.js';
import { CHANNEL_BOOT_SH, CHANNEL_SERVER_PY } from './channel-server.js';
import { withEngineDeadline } from './deadline.js';
import { getDocker } from './engine.js';
import { launchOnChannel, launchOnEngine, type Launch, type Launched } from './launch.js';
import { SandboxError, engineMessage, engineStatus } from './errors.js';
import { packFiles, unpackArchive } from './archive.js';
import { archiveStream, attachHijacked, engineDiff, writtenBytes } from './dockerode-calls.js';
import { changesAgainst, parseImageListing, type ImageListing } from './fs-changes.js';
import { EXEC_MARKER_VAR, killTreeCommand, wrapCommand } from './kill.js';
import { RUN_LABEL, SAMPLE_LABEL } from './labels.js';
import { CappedOutput } from './output.js';
import type { ExecOptions, ExecResult, FileToWrite, FsChange, Sandbox, SandboxOptions } from './types.js';
import { ROOT_USER } from '../core/sandbox.js';

export const DEFAULT_MEMORY_BYTES = 1024 ** 3;
export const DEFAULT_CPUS = 1;
export const DEFAULT_PIDS_LIMIT = 256;
export const DEFAULT_EXEC_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 ** 2;

/**
 * What root keeps for setup and grading (own files of any user, change owners and modes, signal
 * the agent's processes, switch users). Everything else is dropped; the agent user gets none.
 */
const ROOT_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'];

/** How long a killed command's stream may take to close before we stop waiting for it. */
const KILL_GRACE_MS = 3_000;
/** How long to keep trying to start the process-tree killer when no process slot is free. */
const KILL_BUDGET_MS = 30_000;
/** Tries to start a command while the runtime finds no free process slot. */
const START_ATTEMPTS = 6;
/** How long the first command waits for the command server to start before using `docker exec` instead. */
const CHANNEL_START_MS = 20_000;

/** Images whose folders this process has listed (see fs-changes.ts), by image id; the oldest go first. */
const imageListings = new Map<string, Promise<ImageListing | undefined>>();
const IMAGE_LISTINGS_KEPT = 4;

/** Sandboxes of this process not yet destroyed, so an interrupted run can remove them all. */
const live = new Set<DockerSandbox>();

/** Destroys every sandbox this process created and has not destroyed yet (for interrupts). */
export async function destroyAllSandboxes(): Promise<void> {
  await Promise.allSettled([...live].map((s) => s.destroy()));
}

export function liveSandboxCount(): number {
  return live.size;
}

/** A user name as the contract takes it (no numeric ids, no `user:group`): what every backend can resolve. */
const USER_NAME = /^[a-z_][a-z0-9_.-]*\$?$/i;

function slug(text: string, max: number): string {
  const s = text.replace(/[^a-zA-Z0-9_.-]+/g, '-').replace(/^[^a-zA-Z0-9]+/, '');
  return s.slice(0, max) || 'x';
}

function checkOptions(o: SandboxOptions): void {
  if (!o.image) throw new UserError('sandbox: no image given');
  if (o.memoryBytes !== undefined && !(Number.isInteger(o.memoryBytes) && o.memoryBytes >= 16 * 1024 ** 2)) {
    throw new UserError(`sandbox: memory limit must be at least 16 MiB, got ${o.memoryBytes}`);
  }
  if (o.cpus !== undefined && !(o.cpus > 0 && Number.isFinite(o.cpus))) {
    throw new UserError(`sandbox: cpus must be a positive number, got ${o.cpus}`);
  }
  if (o.pidsLimit !== undefined && !(Number.isInteger(o.pidsLimit) && o.pidsLimit >= 8)) {
    throw new UserError(`sandbox: pids limit must be an integer of at least 8, got ${o.pidsLimit}`);
  }
  envList(o.env);
}

function envList(env: Record<string, string> | undefined): string[] {
  return Object.entries(env ?? {}).map(([k, v]) => {
    if (!k || k.includes('=') || k.includes('\0') || v.includes('\0'))
      throw new UserError(`sandbox: invalid environment variable ${JSON.stringify(k)}`);
    return `${k}=${v}`;
  });
}

/** Creates and starts one sandbox container: no network, limits, no privileges, labelled. */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  checkOptions(options);
  const docker = await getDocker();
  const memory = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const network = options.network ?? false;
  const channel = options.commandChannel ?? true;
  const spec: Docker.ContainerCreateOptions = {
    name: `impossiblebench-${slug(options.runId, 40)}-${slug(options.sampleId, 60)}`,
    Image: options.image,
    // The command server (channel-server.ts) on the attached stdin, or a keep-alive for commands by `docker exec`.
    // docker-init as PID 1 reaps orphans and forwards signals.
    ...(channel
      ? {
          Entrypoint: ['/bin/sh', '-c', CHANNEL_BOOT_SH, 'impossiblebench-boot', CHANNEL_SERVER_PY],
          OpenStdin: true,
          StdinOnce: false,
          AttachStdin: true,
          AttachStdout: true,
          AttachStderr: true,
        }
      : { Entrypoint: ['sleep', 'infinity'] }),
    Cmd: [],
    User: ROOT_USER,
    WorkingDir: options.workdir,
    // Sandbox-wide variables are passed with each command instead, after its marker (see kill.ts).
    Env: [],
    Labels: { [RUN_LABEL]: options.runId, [SAMPLE_LABEL]: options.sampleId },
    NetworkDisabled: !network,
    HostConfig: {
      NetworkMode: network ? 'bridge' : 'none',
      Memory: memory,
      // No swap: the memory limit is the whole budget, so an overrun ends in the OOM killer.
      MemorySwap: memory,
      NanoCpus: Math.round((options.cpus ?? DEFAULT_CPUS) * 1e9),
      PidsLimit: options.pidsLimit ?? DEFAULT_PIDS_LIMIT,
      SecurityOpt: ['no-new-privileges:true'],
      CapDrop: ['ALL'],
      CapAdd: ROOT_CAPABILITIES,
      Init: true,
      Privileged: false,
      // Nothing worth keeping is printed outside a command: skip the log driver.
      LogConfig: { Type: 'none', Config: {} },
      Ulimits: [
        { Name: 'core', Soft: 0, Hard: 0 },
        ...(options.maxFileBytes ? [{ Name: 'fsize', Soft: options.maxFileBytes, Hard: options.maxFileBytes }] : []),
      ],
    },
  };
  let container: Docker.Container | undefined;
  for (let attempt = 1; !container; attempt++) {
    // A fresh name per attempt: a failed attempt may still have left its container behind.
    const name = `${spec.name}-${randomBytes(3).toString('hex')}`;
    try {
      container = await withEngineDeadline('create a container', (abortSignal) => docker.createContainer({ ...spec, name, abortSignal }));
    } catch (err) {
      const status = engineStatus(err);
      if (status === 404) throw new SandboxError(`the sandbox image ${options.image} is not present`, { cause: err, permanent: true });
      // Given up at the deadline, or failed midway: what the engine makes of it later is nobody's, so it goes when it
      // appears.
      void removeWhenMadeLate(docker, name);
      if (err instanceof SandboxError) throw err;
      // A busy engine sometimes fails a create with a 5xx; one more try is cheap, more hides trouble.
      if (attempt < 2 && (status === undefined || status >= 500)) {
        await delay(250);
        continue;
      }
      throw new SandboxError(`could not create a sandbox from ${options.image}: ${engineMessage(err)}`, { cause: err });
    }
  }
  let stream: Duplex | undefined;
  // Which image exactly (a tag may be rebuilt): the key of its folder listing.
  const imageId = channel
    ? withEngineDeadline('inspect an image', () => docker.getImage(options.image).inspect()).then(
        (i) => i.Id,
        () => undefined,
      )
    : Promise.resolve(undefined);
  const created = container; // for the closures below: a `let` is not narrowed inside them
  try {
    // Attached before the start, so the server's hello cannot be missed.
    if (channel) stream = await withEngineDeadline('attach to a container', (abortSignal) => attachHijacked(created, abortSignal));
    await withEngineDeadline('start a container', (abortSignal) => created.start({ abortSignal }));
  } catch (err) {
    stream?.destroy();
    await forceRemove(created).catch(() => undefined);
    if (err instanceof SandboxError) throw err;
    throw new SandboxError(`could not start a sandbox from ${options.image}: ${engineMessage(err)}`, { cause: err });
  }
  const sandbox = new DockerSandbox(created, options, stream && new CommandChannel(stream), await imageId);
  live.add(sandbox);
  return sandbox;
}

class DockerSandbox implements Sandbox {
  readonly id: string;
  private destroyed = false;
  private destroying?: Promise<void>;
  /** OOM kills already attributed to earlier commands (the counter is per container). */
  private oomKillsSeen = 0;

  /** Resolves true once the command channel is open; false when commands go by `docker exec`. */
  private readonly channelReady: Promise<boolean>;
  /** The image's folders, for `changes()`; undefined when they cannot be listed here (then `docker diff` answers). */
  private readonly imageListing: Promise<ImageListing | undefined>;
  /** Settles once the sandbox's first command or write may run: after this sandbox listed its image, if it does. */
  private readonly pristine: Promise<unknown>;

  constructor(
    private readonly container: Docker.Container,
    private readonly options: SandboxOptions,
    private readonly channel?: CommandChannel,
    private readonly image?: string,
  ) {
    this.id = container.id;
    this.channelReady = channel ? Promise.race([channel.ready, delay(CHANNEL_START_MS).then(() => false)]) : Promise.resolve(false);
    const known = image === undefined ? Promise.resolve(undefined) : imageListings.get(image);
    if (known || image === undefined) {
      this.imageListing = known ?? Promise.resolve(undefined);
      this.pristine = Promise.resolve();
    } else {
      // The first sandbox of an image lists it before anything runs in it.
      this.imageListing = this.listImage();
      this.pristine = this.imageListing;
      imageListings.set(image, this.imageListing);
      this.imageListing.then(
        (l) => l ?? imageListings.delete(image),
        () => imageListings.delete(image),
      );
      for (const old of imageListings.keys()) if (imageListings.size > IMAGE_LISTINGS_KEPT) imageListings.delete(old);
    }
  }

  private async listImage(): Promise<ImageListing | undefined> {
    const output = await this.walk('image');
    return output === undefined ? undefined : parseImageListing(output);
  }

  /** The command server's walk (fs-changes.ts), or undefined when the sandbox has none or the walk failed. */
  private async walk(mode: 'image' | 'changes'): Promise<string | undefined> {
    const channel = await this.openChannel();
    if (!channel) return undefined;
    return withEngineDeadline('list changed files', () => channel.walk(mode)).catch(() => undefined);
  }

  private alive(): void {
    if (this.destroyed) throw new SandboxError('sandbox already destroyed');
  }

  async exec(command: string[] | string, options: ExecOptions = {}): Promise<ExecResult> {
    this.alive();
    await this.pristine.catch(() => undefined);
    const argv = typeof command === 'string' ? ['/bin/sh', '-c', command] : command;
    if (argv.length === 0 || !argv[0]) throw new UserError('sandbox exec: empty command');
    const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1))
      throw new UserError(`sandbox exec: timeout must be a positive number of milliseconds, got ${timeoutMs}`);
    if (!(Number.isInteger(maxOutput) && maxOutput >= 0))
      throw new UserError(`sandbox exec: output cap must be a whole number of bytes, got ${maxOutput}`);
    if (options.user !== undefined && !USER_NAME.test(options.user)) throw new UserError(`sandbox exec: run as a user name, not "${options.user}"`);
    // The marker goes first among the command's variables (see kill.ts); sandbox-wide ones follow.
    const env = [...envList(this.options.env), ...envList(options.env)];
    options.signal?.throwIfAborted();
    const started = Date.now();
    // When every process slot is taken (e.g. by what an earlier command left running with
    // keepBackground), the runtime cannot even start the command: retry a little, then say so.
    for (let attempt = 1; ; attempt++) {
      const remaining = timeoutMs - (Date.now() - started);
      const result = await this.runOnce(argv, env, { ...options, timeoutMs: Math.max(1, remaining), maxOutputBytes: maxOutput });
      if (result !== 'not-started') return { ...result, durationMs: Date.now() - started };
      if (attempt >= START_ATTEMPTS || Date.now() - started >= timeoutMs) {
        throw new SandboxError('could not start a command: the sandbox has no free process slot (its pids limit is used up)');
      }
      await delay(Math.min(1_000, 50 * 2 ** attempt));
    }
  }

  private async runOnce(
    argv: string[],
    env: string[],
    options: ExecOptions & { timeoutMs: number; maxOutputBytes: number },
  ): Promise<ExecResult | 'not-started'> {
    const user = options.user ?? ROOT_USER;
    const token = randomBytes(12).toString('hex');
    const stdout = new CappedOutput(options.maxOutputBytes);
    const stderr = new CappedOutput(options.maxOutputBytes);
    const stdin = options.stdin === undefined ? undefined : typeof options.stdin === 'string' ? Buffer.from(options.stdin) : options.stdin;
    const launched = await this.launch({
      argv: wrapCommand(argv, token, options.keepBackground),
      env: [`${EXEC_MARKER_VAR}=${token}`, ...env],
      user,
      ...((options.cwd ?? this.options.workdir) ? { cwd: options.cwd ?? this.options.workdir } : {}),
      ...(stdin !== undefined ? { stdin } : {}),
      stdout,
      stderr,
    });
    launched.ended.catch(() => undefined); // lost the race to the deadline: its result no longer matters

    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<'timeout' | 'abort'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
      onAbort = () => resolve('abort');
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    let ended: { exitCode: number } | 'busy' | 'timeout' | 'abort';
    try {
      ended = await Promise.race([launched.ended, stop]);
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    }
    if (ended === 'busy') return 'not-started';
    let oomKilled = false;
    if (ended === 'timeout' || ended === 'abort') {
      // Kill first, and ask about OOM kills meanwhile: a timeout must return promptly. An engine that no longer
      // answers makes it an infrastructure error, never a command that ran out of time.
      const [, oom] = await withEngineDeadline('stop a command that ran out of time', () =>
        Promise.all([
          this.killTree(token, user).then(async () => {
            // Something outside the tree may still hold the output open: stop listening rather than hang.
            await Promise.race([launched.ended.catch(() => undefined), delay(KILL_GRACE_MS)]);
          }),
          this.newOomKills(),
        ]),
      ).finally(() => launched.abandon());
      oomKilled = oom;
      if (ended === 'abort') {
        throw options.signal?.reason instanceof Error ? options.signal.reason : new DOMException('the command was aborted', 'AbortError');
      }
    } else if (ended.exitCode === 137) {
      oomKilled = await this.newOomKills();
    }
    return {
      exitCode: typeof ended === 'object' ? ended.exitCode : null,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut: ended === 'timeout',
      oomKilled,
      stdoutCutBytes: stdout.cutBytes,
      stderrCutBytes: stderr.cutBytes,
      durationMs: 0,
    };
  }

  async forwardPort(port: number, connect: () => Duplex): Promise<void> {
    const channel = await this.openChannel();
    if (!channel) throw new SandboxError(`cannot open port ${port} in the sandbox: it has no command channel (its image has no Python 3)`);
    await channel.forward(port, connect);
  }

  /** The command channel, once open; undefined when commands go by `docker exec`. */
  private async openChannel(): Promise<CommandChannel | undefined> {
    return this.channel && (await this.channelReady) && this.channel.open ? this.channel : undefined;
  }

  /** Starts a command through the command channel when the sandbox has one, else with `docker exec`. */
  private async launch(l: Launch): Promise<Launched> {
    const channel = await this.openChannel();
    if (channel) return launchOnChannel(channel, l);
    return launchOnEngine(this.container, l, (what, err) => this.explainFailure(what, err));
  }

  /** Runs a short helper command to its end (no timeout of its own) and returns its exit code and output. */
  private async helper(argv: string[], user: string): Promise<{ exitCode: number | null; stdout: string }> {
    const stdout = new CappedOutput(64 * 1024);
    const launched = await this.launch({ argv, env: [], user, stdout, stderr: new CappedOutput(0) });
    const ended = await launched.ended;
    return { exitCode: ended === 'busy' ? null : ended.exitCode, stdout: stdout.text() };
  }

  /**
   * Runs the process-tree killer as the command's own user. It is retried for a while: under a
   * fork bomb the runtime may find no free process slot to start it.
   */
  private async killTree(token: string, user: string): Promise<void> {
    const deadline = Date.now() + KILL_BUDGET_MS;
    for (let wait = 50; Date.now() < deadline; wait = Math.min(wait * 2, 500)) {
      try {
        if ((await this.helper(killTreeCommand(token), user)).exitCode === 0) return;
      } catch {
        if (!(await this.isRunning())) return; // the container is gone: so is the tree
      }
      await delay(wait);
    }
  }

  /** True when the kernel's OOM killer fired in this container since the last check. */
  private async newOomKills(): Promise<boolean> {
    let count: number | undefined;
    try {
      // cgroup v2 and v1 paths; both expose an `oom_kill N` line.
      const probe = await this.helper(['cat', '/sys/fs/cgroup/memory.events', '/sys/fs/cgroup/memory/memory.oom_control'], ROOT_USER);
      const match = /^oom_kill (\d+)$/m.exec(probe.stdout);
      if (match) count = Number(match[1]);
    } catch {
      // Fall through to the engine's own flag.
    }
    if (count !== undefined) {
      const fresh = count > this.oomKillsSeen;
      this.oomKillsSeen = count;
      return fresh;
    }
    // No counter readable (e.g. no process slot for the probe): the engine's own flag, which on
    // some engines is only set once and so may also speak of an earlier command.
    try {
      return (await this.inspect()).State.OOMKilled === true;
    } catch {
      return false;
    }
  }

  /** The container's state, within the engine deadline. */
  private inspect(): Promise<Docker.ContainerInspectInfo> {
    return withEngineDeadline('inspect a container', (abortSignal) => this.container.inspect({ abortSignal }));
  }

  private async isRunning(): Promise<boolean> {
    try {
      return (await this.inspect()).State.Running === true;
    } catch {
      return false;
    }
  }

  private async explainFailure(what: string, err: unknown): Promise<SandboxError> {
    if (this.destroyed) return new SandboxError(`${what}: the sandbox was destroyed`, { cause: err });
    // Said already (an engine that did not answer in time): asking the engine again would only wait as long.
    if (err instanceof SandboxError) return new SandboxError(`${what}: ${err.message}`, { cause: err });
    try {
      const state = (await this.inspect()).State;
      if (!state.Running) {
        const why = state.OOMKilled ? 'killed for running out of memory' : `exit code ${state.ExitCode}`;
        return new SandboxError(`${what}: the sandbox container stopped (${why})`, { cause: err });
      }
    } catch {
      return new SandboxError(`${what}: the sandbox container no longer exists`, { cause: err });
    }
    return new SandboxError(`${what}: ${engineMessage(err)}`, { cause: err });
  }

  async imageId(): Promise<string | undefined> {
    return this.image;
  }

  async diskUsage(): Promise<number> {
    this.alive();
    try {
      return await writtenBytes(this.container);
    } catch (err) {
      throw await this.explainFailure('could not measure the sandbox', err);
    }
  }

  async writeFiles(files: FileToWrite[]): Promise<void> {
    this.alive();
    if (files.length === 0) return;
    await this.pristine.catch(() => undefined);
    const channel = await this.openChannel();
    if (channel && (await withEngineDeadline('write files', () => writeThroughChannel(channel, files))) !== NO_TAR) return;
    const archive = packFiles(files);
    try {
      await withEngineDeadline('write files', (abortSignal) => this.container.putArchive(archive, { path: '/', abortSignal }));
    } catch (err) {
      throw await this.explainFailure('could not write files', err);
    }
  }

  async readFile(path: string, linksFollowed = 0): Promise<Buffer> {
    this.alive();
    const entries = await this.getArchive(path);
    const file = entries.files.get(entries.root);
    if (file) return file;
    if (entries.isDirectory) throw new SandboxError(`${path} is a folder, not a file`);
    if (entries.linkTarget !== undefined) {
      if (linksFollowed >= 16) throw new SandboxError(`${path}: too many levels of symbolic links`);
      const target = entries.linkTarget.startsWith('/') ? entries.linkTarget : `${path.replace(/\/[^/]*$/, '')}/${entries.linkTarget}`;
      return this.readFile(target, linksFollowed + 1);
    }
    throw new SandboxError(`${path} is not a regular file`);
  }

  async readDir(path: string): Promise<Map<string, Buffer>> {
    this.alive();
    const entries = await this.getArchive(path);
    if (!entries.isDirectory) throw new SandboxError(`${path} is not a folder`);
    const out = new Map<string, Buffer>();
    const prefix = `${entries.root}/`;
    for (const [name, content] of entries.files) {
      if (name.startsWith(prefix)) out.set(name.slice(prefix.length), content);
    }
    return out;
  }

  private async getArchive(path: string) {
    if (!path.startsWith('/')) throw new UserError(`sandbox: path must be absolute: ${path}`);
    const channel = await this.openChannel();
    const read = channel && (await withEngineDeadline(`read ${path}`, () => readThroughChannel(channel, path)));
    if (read && read !== NO_TAR) return read;
    let stream: Readable;
    try {
      stream = await withEngineDeadline(`read ${path}`, () => archiveStream(this.container, path));
    } catch (err) {
      if (engineStatus(err) === 404) throw new SandboxError(`no such file or folder in the sandbox: ${path}`, { cause: err });
      throw await this.explainFailure(`could not read ${path}`, err);
    }
    return unpackArchive(stream);
  }

  async changes(): Promise<FsChange[]> {
    this.alive();
    const image = await this.imageListing.catch(() => undefined);
    const output = image && (await this.walk('changes'));
    if (image && output !== undefined) return changesAgainst(image, output);
    return this.engineChanges();
  }

  /** `docker diff`: for sandboxes without a command server. */
  private async engineChanges(): Promise<FsChange[]> {
    let list: { Path: string; Kind: number }[];
    try {
      list = await withEngineDeadline('list changed files', () => engineDiff(this.container));
    } catch (err) {
      throw await this.explainFailure('could not list filesystem changes', err);
    }
    const kinds = ['modified', 'added', 'deleted'] as const;
    return withoutEngineMounts(list.map((c) => ({ path: c.Path, kind: kinds[c.Kind] ?? 'modified' })));
  }

  destroy(): Promise<void> {
    this.destroying ??= (async () => {
      this.destroyed = true;
      this.channel?.dispose();
      try {
        await forceRemove(this.container);
      } catch (err) {
        this.destroying = undefined; // let a later call try again
        if (err instanceof SandboxError) throw err;
        throw new SandboxError(`could not remove sandbox ${this.id.slice(0, 12)}: ${engineMessage(err)}`, { cause: err });
      }
      live.delete(this);
    })();
    return this.destroying;
  }
}

/** Paths the engine itself adds (the init binary it mounts), not anything a command did. */
const ENGINE_PATHS = new Set(['/sbin/docker-init', '/usr/sbin/docker-init', '/usr/bin/docker-init']);

/**
 * Drops the engine's own mounts and the parent folders listed as "modified" only because of them.
 * A parent stays when anything else changed beneath it.
 */
function withoutEngineMounts(changes: FsChange[]): FsChange[] {
  const isEngineParent = (c: FsChange) => c.kind === 'modified' && [...ENGINE_PATHS].some((p) => p.startsWith(`${c.path}/`));
  const real = changes.filter((c) => !ENGINE_PATHS.has(c.path) && !isEngineParent(c));
  return changes.filter((c) => !ENGINE_PATHS.has(c.path) && (!isEngineParent(c) || real.some((o) => o.path.startsWith(`${c.path}/`))));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
