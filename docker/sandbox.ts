import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { UserError } from '../core/errors.js';
import { ROOT_USER } from '../core/sandbox.js';
import { CommandChannel } from './channel.js';
import { CHANNEL_BOOT_SH, CHANNEL_SERVER_PY } from './channel-server.js';
import { forceRemove, removeWhenMadeLate } from './cleanup.js';
import { withEngineDeadline } from './deadline.js';
import { attachHijacked, writtenBytes } from './dockerode-calls.js';
import { getDocker } from './engine.js';
import { SandboxError, engineMessage, engineStatus } from './errors.js';
import { RUN_LABEL, SAMPLE_LABEL } from './labels.js';
import { DEFAULT_CPUS, DEFAULT_MEMORY_BYTES, DEFAULT_PIDS_LIMIT } from './limits-defaults.js';
import { SandboxChanges } from './sandbox-changes.js';
import { addTarpits } from './tarpit.js';
import { SandboxContainer, delay } from './sandbox-container.js';
import { envList, execCommand } from './sandbox-exec.js';
import { readDir, readFile, writeFiles } from './sandbox-files.js';
import { OomWatch } from './sandbox-kill.js';
import { checkReadOnlyFiles, readOnlyMounts } from './read-only-files.js';
import type { ExecOptions, ExecResult, FileToWrite, FsChange, Sandbox, SandboxOptions } from './types.js';

/**
 * One container per sandbox, from its creation to its removal; its commands (`sandbox-exec.ts`, killed by
 * `sandbox-kill.ts`), files (`sandbox-files.ts`) and changes (`sandbox-changes.ts`) each live apart.
 */

/**
 * What root keeps for setup and grading (own files of any user, change owners and modes, signal
 * the agent's processes, switch users). Everything else is dropped; the agent user gets none.
 */
const ROOT_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'];

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
  if (o.readOnlyFiles) checkReadOnlyFiles(o.readOnlyFiles);
  for (const a of o.tarpits ?? []) {
    if (!/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(a) || a.split('.').some((n) => Number(n) > 255)) {
      throw new UserError(`sandbox: a tarpit must be an IPv4 address, got "${a}"`);
    }
  }
}

/** The container a sandbox is: no network, limits, no privileges, labelled. */
function containerSpec(options: SandboxOptions, engineCpus: number): Docker.ContainerCreateOptions {
  const memory = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const network = options.network ?? false;
  return {
    name: `impossiblebench-${slug(options.runId, 40)}-${slug(options.sampleId, 60)}`,
    Image: options.image,
    // The command server (channel-server.ts) on the attached stdin, or a keep-alive for commands by `docker exec`.
    // docker-init as PID 1 reaps orphans and forwards signals.
    ...((options.commandChannel ?? true)
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
      NanoCpus: Math.round(Math.min(options.cpus ?? DEFAULT_CPUS, engineCpus) * 1e9),
      PidsLimit: options.pidsLimit ?? DEFAULT_PIDS_LIMIT,
      SecurityOpt: ['no-new-privileges:true'],
      CapDrop: ['ALL'],
      CapAdd: ROOT_CAPABILITIES,
      Init: true,
      Privileged: false,
      ...(options.readOnlyFiles?.length ? { Mounts: readOnlyMounts(options.readOnlyFiles) } : {}),
      // Nothing worth keeping is printed outside a command: skip the log driver.
      LogConfig: { Type: 'none', Config: {} },
      Ulimits: [
        { Name: 'core', Soft: 0, Hard: 0 },
        ...(options.maxFileBytes ? [{ Name: 'fsize', Soft: options.maxFileBytes, Hard: options.maxFileBytes }] : []),
      ],
    },
  };
}

/** Creates the container, trying once more when a busy engine fails the create. */
async function createContainer(docker: Docker, spec: Docker.ContainerCreateOptions, image: string): Promise<Docker.Container> {
  for (let attempt = 1; ; attempt++) {
    // A fresh name per attempt: a failed attempt may still have left its container behind.
    const name = `${spec.name}-${randomBytes(3).toString('hex')}`;
    try {
      return await withEngineDeadline('create a container', (abortSignal) => docker.createContainer({ ...spec, name, abortSignal }));
    } catch (err) {
      const status = engineStatus(err);
      if (status === 404) throw new SandboxError(`the sandbox image ${image} is not present`, { cause: err, permanent: true });
      // Given up at the deadline, or failed midway: what the engine makes of it later is nobody's, so it goes when it
      // appears.
      void removeWhenMadeLate(docker, name);
      if (err instanceof SandboxError) throw err;
      // A busy engine sometimes fails a create with a 5xx; one more try is cheap, more hides trouble.
      if (attempt < 2 && (status === undefined || status >= 500)) {
        await delay(250);
        continue;
      }
      throw new SandboxError(`could not create a sandbox from ${image}: ${engineMessage(err)}`, { cause: err });
    }
  }
}

const engineCpus = new WeakMap<Docker, Promise<number>>();
const clampSaid = new WeakSet<Docker>();

/**
 * The CPUs an engine's machine has: the engine refuses a container asking for more, so such a sandbox gets them all,
 * and the process is warned once (a reference run shows what the tests make of it).
 */
async function cpusOf(docker: Docker, asked: number | undefined): Promise<number> {
  let known = engineCpus.get(docker);
  if (!known) {
    known = withEngineDeadline('ask the engine for its CPUs', () => docker.info()).then(
      (info: { NCPU?: number }) => info.NCPU ?? Number.POSITIVE_INFINITY,
      () => Number.POSITIVE_INFINITY,
    );
    engineCpus.set(docker, known);
  }
  const cpus = await known;
  if ((asked ?? DEFAULT_CPUS) > cpus && !clampSaid.has(docker)) {
    clampSaid.add(docker);
    process.emitWarning(`sandboxes asked for ${asked} CPUs, but the engine's machine has ${cpus}: they get ${cpus}`);
  }
  return cpus;
}

/** Creates and starts one sandbox container: no network, limits, no privileges, labelled. */
export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  checkOptions(options);
  const docker = await getDocker();
  const channel = options.commandChannel ?? true;
  const created = await createContainer(docker, containerSpec(options, await cpusOf(docker, options.cpus)), options.image);
  let stream: Duplex | undefined;
  // Which image exactly (a tag may be rebuilt): the key of its folder listing.
  const imageId = channel
    ? withEngineDeadline('inspect an image', () => docker.getImage(options.image).inspect()).then(
        (i) => i.Id,
        () => undefined,
      )
    : Promise.resolve(undefined);
  try {
    // Attached before the start, so the server's hello cannot be missed.
    if (channel) stream = await withEngineDeadline('attach to a container', (abortSignal) => attachHijacked(created, abortSignal));
    await withEngineDeadline('start a container', (abortSignal) => created.start({ abortSignal }));
    if (options.tarpits?.length) await addTarpits(docker, { ...options, id: created.id }, options.tarpits);
  } catch (err) {
    stream?.destroy();
    await forceRemove(created).catch(() => undefined);
    if (err instanceof SandboxError) throw err;
    throw new SandboxError(`could not start a sandbox from ${options.image}: ${engineMessage(err)}`, { cause: err });
  }
  const sandbox = new DockerSandbox(new SandboxContainer(created, stream && new CommandChannel(stream)), options, await imageId);
  live.add(sandbox);
  return sandbox;
}

class DockerSandbox implements Sandbox {
  readonly id: string;
  private destroying?: Promise<void>;
  private readonly oom: OomWatch;
  private readonly fsChanges: SandboxChanges;

  constructor(
    private readonly c: SandboxContainer,
    private readonly options: SandboxOptions,
    private readonly image?: string,
  ) {
    this.id = c.container.id;
    this.oom = new OomWatch(c);
    this.fsChanges = new SandboxChanges(c, image);
  }

  async exec(command: string[] | string, options: ExecOptions = {}): Promise<ExecResult> {
    this.c.alive();
    await this.fsChanges.pristine.catch(() => undefined);
    return execCommand(this.c, this.oom, this.options, command, options);
  }

  async forwardPort(port: number, connect: () => Duplex): Promise<void> {
    const channel = await this.c.openChannel();
    if (!channel) throw new SandboxError(`cannot open port ${port} in the sandbox: it has no command channel (its image has no Python 3)`);
    await channel.forward(port, connect);
  }

  async imageId(): Promise<string | undefined> {
    return this.image;
  }

  async diskUsage(): Promise<number> {
    this.c.alive();
    try {
      return await writtenBytes(this.c.container);
    } catch (err) {
      throw await this.c.explainFailure('could not measure the sandbox', err);
    }
  }

  async writeFiles(files: FileToWrite[]): Promise<void> {
    this.c.alive();
    if (files.length === 0) return;
    await this.fsChanges.pristine.catch(() => undefined);
    await writeFiles(this.c, files);
  }

  async readFile(path: string): Promise<Buffer> {
    this.c.alive();
    return readFile(this.c, path);
  }

  async readDir(path: string): Promise<Map<string, Buffer>> {
    this.c.alive();
    return readDir(this.c, path);
  }

  async changes(): Promise<FsChange[]> {
    this.c.alive();
    return this.fsChanges.changes();
  }

  destroy(): Promise<void> {
    this.destroying ??= (async () => {
      this.c.destroyed = true;
      this.c.channel?.dispose();
      try {
        await forceRemove(this.c.container);
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
