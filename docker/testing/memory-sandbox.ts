import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import { UserError } from '../../core/errors.js';
import { ROOT_USER } from '../../core/sandbox.js';
import { SandboxError } from '../errors.js';
import { DEFAULT_EXEC_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES } from '../limits-defaults.js';
import { CappedOutput } from '../output.js';
import type { ExecOptions, ExecResult, FileToWrite, FsChange, Sandbox } from '../types.js';

/*
 * A sandbox held in this process, for tests of what drives sandboxes (the agent loops, their sessions): files in
 * memory, and each command answered by a handler the test gives. Nothing runs on the host: agent-controlled text only
 * ever reaches a test's handler, never a shell.
 */

/** One command as a handler sees it. */
export interface MemoryCommand {
  argv: string[];
  /** The argv joined by spaces: what a route's pattern is tested against. */
  line: string;
  user: string;
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  /** Aborted at the command's timeout or its caller's abort: a handler that waits should end on it. */
  signal: AbortSignal;
  sandbox: MemorySandbox;
}

/** What a handler answers; unset fields read as a clean exit with no output. */
export interface CommandReply {
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  oomKilled?: boolean;
}

export type CommandHandler = (command: MemoryCommand) => CommandReply | Promise<CommandReply>;

/** The first route whose `match` fits a command answers it. */
export interface CommandRoute {
  match: RegExp | ((command: MemoryCommand) => boolean);
  run: CommandHandler;
}

/** A file of a memory sandbox, with the owner and mode it was written with. */
export interface MemoryFile {
  content: Buffer;
  mode: number;
  uid: number;
  gid: number;
}

export interface MemorySandboxOptions {
  id?: string;
  /** The image's files, keyed by absolute path: what `changes` compares against. */
  image?: Record<string, string | Buffer>;
  /** The image's users; default root, agent and nobody. */
  users?: string[];
  routes?: CommandRoute[];
  workdir?: string;
  env?: Record<string, string>;
}

/** Waits until the command's signal ends it, as a command that never finishes does. */
export function hangUntilKilled(signal: AbortSignal): Promise<CommandReply> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ exitCode: null }), { once: true }));
}

const toFile = (content: string | Buffer, mode = 0o644, uid = 0, gid = 0): MemoryFile => ({ content: Buffer.from(content), mode, uid, gid });

export class MemorySandbox implements Sandbox {
  readonly id: string;
  /** Every command run, in order, as its handler saw it (for tests to assert what was asked). */
  readonly commands: MemoryCommand[] = [];
  private readonly files = new Map<string, MemoryFile>();
  private readonly image: ReadonlyMap<string, Buffer>;
  private readonly users: ReadonlySet<string>;
  private readonly routes: CommandRoute[];
  private destroyed = false;

  constructor(private readonly options: MemorySandboxOptions = {}) {
    this.id = options.id ?? `memory-${randomBytes(6).toString('hex')}`;
    const image = Object.entries(options.image ?? {}).map(([path, content]) => [path, Buffer.from(content)] as const);
    this.image = new Map(image);
    for (const [path, content] of image) this.files.set(path, toFile(content));
    this.users = new Set(options.users ?? [ROOT_USER, 'agent', 'nobody']);
    this.routes = [...(options.routes ?? [])];
  }

  /** Adds routes after creation; they are tried after the ones given at first. */
  route(...routes: CommandRoute[]): void {
    this.routes.push(...routes);
  }

  /** A file's text, or undefined when there is none. */
  text(path: string): string | undefined {
    return this.files.get(path)?.content.toString('utf8');
  }

  file(path: string): MemoryFile | undefined {
    return this.files.get(path);
  }

  /** Writes a file as a command of a handler would (root's, 0644, unless told). */
  put(path: string, content: string | Buffer, owner: Partial<Omit<MemoryFile, 'content'>> = {}): void {
    this.live();
    this.files.set(absolute(path), toFile(content, owner.mode, owner.uid, owner.gid));
  }

  remove(path: string): boolean {
    this.live();
    return this.files.delete(absolute(path));
  }

  async exec(command: string[] | string, options: ExecOptions = {}): Promise<ExecResult> {
    this.live();
    const argv = typeof command === 'string' ? ['/bin/sh', '-c', command] : command;
    if (argv.length === 0 || !argv[0]) throw new UserError('sandbox exec: empty command');
    const user = options.user ?? ROOT_USER;
    if (!this.users.has(user)) throw new SandboxError(`sandbox exec: the image has no user "${user}"`);
    options.signal?.throwIfAborted();
    const started = Date.now();
    const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
    const ends = new AbortController();
    const call: MemoryCommand = {
      argv,
      line: argv.join(' '),
      user,
      cwd: options.cwd ?? this.options.workdir ?? '/',
      env: { ...this.options.env, ...options.env },
      stdin: options.stdin === undefined ? '' : options.stdin.toString(),
      signal: ends.signal,
      sandbox: this,
    };
    this.commands.push(call);
    const route = this.routes.find((r) => (typeof r.match === 'function' ? r.match(call) : r.match.test(call.line)));
    const handled = route ? Promise.resolve(route.run(call)) : Promise.resolve(unhandled(call));
    const outcome = await raceEnd(handled, timeoutMs, options.signal).finally(() => ends.abort());
    if (outcome === 'abort') {
      throw options.signal?.reason instanceof Error ? options.signal.reason : new DOMException('the command was aborted', 'AbortError');
    }
    const reply = outcome === 'timeout' ? { exitCode: null } : outcome;
    const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const [stdout, stderr] = [reply.stdout ?? '', reply.stderr ?? ''].map((text) => capped(text, cap)) as [CappedOutput, CappedOutput];
    return {
      exitCode: reply.exitCode === undefined ? 0 : reply.exitCode,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut: outcome === 'timeout',
      oomKilled: reply.oomKilled ?? false,
      stdoutCutBytes: stdout.cutBytes,
      stderrCutBytes: stderr.cutBytes,
      durationMs: Date.now() - started,
    };
  }

  async writeFiles(files: FileToWrite[]): Promise<void> {
    this.live();
    for (const f of files) {
      if (!posix.isAbsolute(f.path)) throw new UserError(`sandbox: write to an absolute path, not "${f.path}"`);
      this.files.set(posix.normalize(f.path), toFile(f.content, f.mode, f.uid, f.gid));
    }
  }

  async readFile(path: string): Promise<Buffer> {
    this.live();
    const file = this.files.get(absolute(path));
    if (!file) throw new Error(`sandbox: no file ${path}`);
    return Buffer.from(file.content);
  }

  async readDir(path: string): Promise<Map<string, Buffer>> {
    this.live();
    const prefix = `${absolute(path).replace(/\/$/, '')}/`;
    const found = new Map<string, Buffer>();
    for (const [p, f] of this.files) if (p.startsWith(prefix)) found.set(p.slice(prefix.length), Buffer.from(f.content));
    if (found.size === 0) throw new Error(`sandbox: no folder ${path}`);
    return found;
  }

  /** Files only: a memory sandbox keeps no folders of its own. */
  async changes(): Promise<FsChange[]> {
    this.live();
    const changes: FsChange[] = [];
    for (const [path, file] of this.files) {
      const before = this.image.get(path);
      if (!before) changes.push({ path, kind: 'added' });
      else if (!before.equals(file.content)) changes.push({ path, kind: 'modified' });
    }
    for (const path of this.image.keys()) if (!this.files.has(path)) changes.push({ path, kind: 'deleted' });
    return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async diskUsage(): Promise<number> {
    this.live();
    let bytes = 0;
    for (const [path, file] of this.files) if (!this.image.get(path)?.equals(file.content)) bytes += file.content.length;
    return bytes;
  }

  async destroy(): Promise<void> {
    this.destroyed = true;
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /** Every call on a destroyed sandbox fails as one on a removed container does: the machinery's failure. */
  private live(): void {
    if (this.destroyed) throw new SandboxError(`sandbox ${this.id} is gone`);
  }
}

function absolute(path: string): string {
  return posix.normalize(path.startsWith('/') ? path : `/${path}`);
}

/** A command no route answers: said as a shell says it, so a test that forgot a route sees which. */
function unhandled(call: MemoryCommand): CommandReply {
  return { exitCode: 127, stderr: `memory sandbox: no handler for: ${call.line}` };
}

function capped(text: string, maxBytes: number): CappedOutput {
  const out = new CappedOutput(maxBytes);
  out.write(Buffer.from(text));
  return out;
}

/** Whichever comes first: the handler's reply, the command's timeout, or its caller's abort. */
async function raceEnd(
  handled: Promise<CommandReply>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<CommandReply | 'timeout' | 'abort'> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<'timeout' | 'abort'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    onAbort = () => resolve('abort');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([handled, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
