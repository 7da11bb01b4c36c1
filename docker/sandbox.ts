import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { UserError } from '../runner/errors.js';
import { StreamDemuxer } from './demux.js';
import { getDocker } from './engine.js';
import { SandboxError, engineMessage, engineStatus } from './errors.js';
import { packFiles, unpackArchive } from './archive.js';
import { EXEC_MARKER_VAR, killTreeCommand, wrapCommand } from './kill.js';
import { RUN_LABEL, SAMPLE_LABEL } from './labels.js';
import { CappedOutput } from './output.js';
import type { ExecOptions, ExecResult, FileToWrite, FsChange, Sandbox, SandboxOptions } from './types.js';
import { ROOT_USER } from './types.js';

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

/** Sandboxes of this process not yet destroyed, so an interrupted run can remove them all. */
const live = new Set<DockerSandbox>();

/** Destroys every sandbox this process created and has not destroyed yet (for interrupts). */
export async function destroyAllSandboxes(): Promise<void> {
  await Promise.allSettled([...live].map((s) => s.destroy()));
}

export function liveSandboxCount(): number {
  return live.size;
}

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
    if (!k || k.includes('=') || k.includes('\0') || v.includes('\0')) throw new UserError(`sandbox: invalid environment variable ${JSON.stringify(k)}`);
    return `${k}=${v}`;
  });
}

/** Creates and starts one sandbox container: no network, limits, no privileges, labelled. */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  checkOptions(options);
  const docker = await getDocker();
  const memory = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const network = options.network ?? false;
  const spec: Docker.ContainerCreateOptions = {
    name: `impossiblebench-${slug(options.runId, 40)}-${slug(options.sampleId, 60)}`,
    Image: options.image,
    // Keep-alive: commands arrive by exec. docker-init as PID 1 reaps orphans and forwards signals.
    Entrypoint: ['sleep', 'infinity'],
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
      // The keep-alive prints nothing and command output comes back by exec: skip the log driver.
      LogConfig: { Type: 'none', Config: {} },
      Ulimits: [
        { Name: 'core', Soft: 0, Hard: 0 },
        ...(options.maxFileBytes ? [{ Name: 'fsize', Soft: options.maxFileBytes, Hard: options.maxFileBytes }] : []),
      ],
    },
  };
  let container: Docker.Container | undefined;
  for (let attempt = 1; !container; attempt++) {
    try {
      // A fresh name per attempt: a failed attempt may still have left its container behind.
      container = await docker.createContainer({ ...spec, name: `${spec.name}-${randomBytes(3).toString('hex')}` });
    } catch (err) {
      const status = engineStatus(err);
      if (status === 404) throw new SandboxError(`the sandbox image ${options.image} is not present`, { cause: err, permanent: true });
      // A busy engine sometimes fails a create with a 5xx; one more try is cheap, more hides trouble.
      if (attempt < 2 && (status === undefined || status >= 500)) {
        await delay(250);
        continue;
      }
      throw new SandboxError(`could not create a sandbox from ${options.image}: ${engineMessage(err)}`, { cause: err });
    }
  }
  try {
    await container.start();
  } catch (err) {
    await container.remove({ force: true }).catch(() => undefined);
    throw new SandboxError(`could not start a sandbox from ${options.image}: ${engineMessage(err)}`, { cause: err });
  }
  const sandbox = new DockerSandbox(container, options);
  live.add(sandbox);
  return sandbox;
}

class DockerSandbox implements Sandbox {
  readonly id: string;
  private destroyed = false;
  private destroying?: Promise<void>;
  /** OOM kills already attributed to earlier commands (the counter is per container). */
  private oomKillsSeen = 0;

  constructor(
    private readonly container: Docker.Container,
    private readonly options: SandboxOptions,
  ) {
    this.id = container.id;
  }

  private alive(): void {
    if (this.destroyed) throw new SandboxError('sandbox already destroyed');
  }

  async exec(command: string[] | string, options: ExecOptions = {}): Promise<ExecResult> {
    this.alive();
    const argv = typeof command === 'string' ? ['/bin/sh', '-c', command] : command;
    if (argv.length === 0 || !argv[0]) throw new UserError('sandbox exec: empty command');
    const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1)) throw new UserError(`sandbox exec: timeout must be a positive number of milliseconds, got ${timeoutMs}`);
    if (!(Number.isInteger(maxOutput) && maxOutput >= 0)) throw new UserError(`sandbox exec: output cap must be a whole number of bytes, got ${maxOutput}`);
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

  private async runOnce(argv: string[], env: string[], options: ExecOptions & { timeoutMs: number; maxOutputBytes: number }): Promise<ExecResult | 'not-started'> {
    const user = options.user ?? ROOT_USER;
    const token = randomBytes(12).toString('hex');
    const hasStdin = options.stdin !== undefined;
    let exec: Docker.Exec;
    let stream: Readable;
    try {
      exec = await this.container.exec({
        Cmd: wrapCommand(argv, token, options.keepBackground),
        AttachStdout: true,
        AttachStderr: true,
        AttachStdin: hasStdin,
        Tty: false,
        User: user,
        WorkingDir: options.cwd ?? this.options.workdir,
        Env: [`${EXEC_MARKER_VAR}=${token}`, ...env],
      });
      stream = (await exec.start({ hijack: hasStdin, stdin: hasStdin })) as unknown as Readable;
    } catch (err) {
      throw await this.explainFailure('could not start a command', err);
    }

    const stdout = new CappedOutput(options.maxOutputBytes);
    const stderr = new CappedOutput(options.maxOutputBytes);
    const demux = new StreamDemuxer(
      (c) => stdout.write(c),
      (c) => stderr.write(c),
    );
    const ended = new Promise<void>((resolve) => {
      stream.on('data', (chunk: Buffer) => demux.push(chunk));
      stream.once('end', resolve);
      stream.once('close', resolve);
      stream.once('error', () => resolve());
    });
    if (hasStdin) {
      const writable = stream as unknown as NodeJS.WritableStream;
      writable.on('error', () => undefined); // a command that exits without reading its input
      writable.write(typeof options.stdin === 'string' ? Buffer.from(options.stdin) : options.stdin!);
      // Half-close: the command sees end of input while its output keeps flowing back.
      writable.end();
    }

    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<'timeout' | 'abort'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
      onAbort = () => resolve('abort');
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
    // The output can close before the command ends (it may close its descriptors): the command
    // is done only when the engine says so, and the deadline covers both waits.
    let finished: { exitCode: number; pid: number } | null = null;
    let outcome: 'ended' | 'timeout' | 'abort' = await Promise.race([ended.then(() => 'ended' as const), stop]);
    if (outcome === 'ended') {
      let settled = false;
      const polling = this.exitOf(exec, () => settled);
      polling.catch(() => undefined); // lost the race to the deadline: its result no longer matters
      const waited = await Promise.race([polling, stop]).finally(() => (settled = true));
      if (waited === 'timeout' || waited === 'abort') outcome = waited;
      else finished = waited;
    }
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);

    if (finished && finished.pid === 0 && finished.exitCode === 126) {
      // The runtime never started the process; its reason is in the output.
      const reason = `${stdout.text()} ${stderr.text()}`
        .replace(/[\x00-\x08\r]/g, '')
        .replace(/^.*unable to start container process:\s*/s, '')
        .replace(/:\s*unknown\s*$/, '')
        .trim();
      if (/init-p|resource temporarily unavailable|cannot allocate|fork/i.test(reason)) return 'not-started';
      throw new SandboxError(`could not start a command: ${reason || 'the container runtime refused it'}`);
    }
    const exitCode = finished?.exitCode ?? null;
    let oomKilled = false;
    if (outcome !== 'ended') {
      // Kill first, and ask about OOM kills meanwhile: a timeout must return promptly.
      const [, oom] = await Promise.all([
        this.killTree(token, user).then(async () => {
          const closed = await Promise.race([ended.then(() => true), delay(KILL_GRACE_MS).then(() => false)]);
          // Something outside the tree still holds the output open: stop listening rather than hang.
          if (!closed) stream.destroy();
        }),
        this.newOomKills(),
      ]);
      oomKilled = oom;
    } else if (exitCode === 137) {
      oomKilled = await this.newOomKills();
    }
    if (outcome === 'abort') {
      throw options.signal?.reason instanceof Error ? options.signal.reason : new DOMException('the command was aborted', 'AbortError');
    }
    return {
      exitCode,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut: outcome === 'timeout',
      oomKilled,
      stdoutCutBytes: stdout.cutBytes,
      stderrCutBytes: stderr.cutBytes,
      durationMs: 0,
    };
  }

  /**
   * The exit code (and pid, 0 when the runtime never started the process) once the engine has
   * recorded them: this can lag the end of the output, or follow it by far.
   */
  private async exitOf(exec: Docker.Exec, cancelled: () => boolean): Promise<{ exitCode: number; pid: number } | null> {
    for (let wait = 10; !cancelled(); wait = Math.min(wait * 2, 250)) {
      let info: Docker.ExecInspectInfo;
      try {
        info = await exec.inspect();
      } catch (err) {
        throw await this.explainFailure('lost track of a command', err);
      }
      if (!info.Running && typeof info.ExitCode === 'number') return { exitCode: info.ExitCode, pid: info.Pid };
      await delay(wait);
    }
    return null;
  }

  /**
   * Runs the process-tree killer as the command's own user. It is retried for a while: under a
   * fork bomb the runtime may find no free process slot to start it.
   */
  private async killTree(token: string, user: string): Promise<void> {
    const deadline = Date.now() + KILL_BUDGET_MS;
    for (let wait = 50; Date.now() < deadline; wait = Math.min(wait * 2, 500)) {
      try {
        const killer = await this.container.exec({ Cmd: killTreeCommand(token), AttachStdout: true, AttachStderr: true, User: user });
        const s = (await killer.start({})) as unknown as Readable;
        await new Promise<void>((resolve) => {
          s.on('data', () => undefined);
          s.once('end', resolve);
          s.once('close', resolve);
          s.once('error', () => resolve());
        });
        const info = await killer.inspect();
        if (info.ExitCode === 0) return;
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
      const probe = await this.container.exec({
        // cgroup v2 and v1 paths; both expose an `oom_kill N` line.
        Cmd: ['cat', '/sys/fs/cgroup/memory.events', '/sys/fs/cgroup/memory/memory.oom_control'],
        AttachStdout: true,
        AttachStderr: true,
        User: ROOT_USER,
      });
      const s = (await probe.start({})) as unknown as Readable;
      const out = new CappedOutput(64 * 1024);
      const demux = new StreamDemuxer(
        (c) => out.write(c),
        () => undefined,
      );
      await new Promise<void>((resolve) => {
        s.on('data', (c: Buffer) => demux.push(c));
        s.once('end', resolve);
        s.once('close', resolve);
        s.once('error', () => resolve());
      });
      const match = /^oom_kill (\d+)$/m.exec(out.text());
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
      return (await this.container.inspect()).State.OOMKilled === true;
    } catch {
      return false;
    }
  }

  private async isRunning(): Promise<boolean> {
    try {
      return (await this.container.inspect()).State.Running === true;
    } catch {
      return false;
    }
  }

  private async explainFailure(what: string, err: unknown): Promise<SandboxError> {
    if (this.destroyed) return new SandboxError(`${what}: the sandbox was destroyed`, { cause: err });
    try {
      const state = (await this.container.inspect()).State;
      if (!state.Running) {
        const why = state.OOMKilled ? 'killed for running out of memory' : `exit code ${state.ExitCode}`;
        return new SandboxError(`${what}: the sandbox container stopped (${why})`, { cause: err });
      }
    } catch {
      return new SandboxError(`${what}: the sandbox container no longer exists`, { cause: err });
    }
    return new SandboxError(`${what}: ${engineMessage(err)}`, { cause: err });
  }

  async diskUsage(): Promise<number> {
    this.alive();
    try {
      // `size` is an engine query parameter the types do not list: it makes the engine sum the container's layer.
      const info = (await this.container.inspect({ size: true } as Docker.ContainerInspectOptions)) as { SizeRw?: number };
      return info.SizeRw ?? 0;
    } catch (err) {
      throw await this.explainFailure('could not measure the sandbox', err);
    }
  }

  async writeFiles(files: FileToWrite[]): Promise<void> {
    this.alive();
    if (files.length === 0) return;
    const archive = packFiles(files);
    try {
      await this.container.putArchive(archive, { path: '/' });
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
    let stream: NodeJS.ReadableStream;
    try {
      stream = await this.container.getArchive({ path });
    } catch (err) {
      if (engineStatus(err) === 404) throw new SandboxError(`no such file or folder in the sandbox: ${path}`, { cause: err });
      throw await this.explainFailure(`could not read ${path}`, err);
    }
    return unpackArchive(stream as unknown as Readable);
  }

  async changes(): Promise<FsChange[]> {
    this.alive();
    let list: Array<{ Path: string; Kind: number }> | null;
    try {
      list = (await this.container.changes()) as Array<{ Path: string; Kind: number }> | null;
    } catch (err) {
      throw await this.explainFailure('could not list filesystem changes', err);
    }
    const kinds = ['modified', 'added', 'deleted'] as const;
    return withoutEngineMounts((list ?? []).map((c) => ({ path: c.Path, kind: kinds[c.Kind] ?? 'modified' })));
  }

  destroy(): Promise<void> {
    this.destroying ??= (async () => {
      this.destroyed = true;
      try {
        await this.container.remove({ force: true, v: true });
      } catch (err) {
        const status = engineStatus(err);
        // Already gone, or removal already under way: the outcome we want.
        if (status !== 404 && status !== 409) {
          this.destroying = undefined; // let a later call try again
          throw new SandboxError(`could not remove sandbox ${this.id.slice(0, 12)}: ${engineMessage(err)}`, { cause: err });
        }
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
  return changes.filter(
    (c) => !ENGINE_PATHS.has(c.path) && (!isEngineParent(c) || real.some((o) => o.path.startsWith(`${c.path}/`))),
  );
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
