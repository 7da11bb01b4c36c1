import { randomBytes } from 'node:crypto';
import { UserError } from '../core/errors.js';
import { ROOT_USER } from '../core/sandbox.js';
import { withEngineDeadline } from './deadline.js';
import { SandboxError } from './errors.js';
import { EXEC_MARKER_VAR, wrapCommand } from './kill.js';
import { DEFAULT_EXEC_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES } from './limits-defaults.js';
import { CappedOutput } from './output.js';
import { delay, type SandboxContainer } from './sandbox-container.js';
import { killTree, type OomWatch } from './sandbox-kill.js';
import type { ExecOptions, ExecResult } from './types.js';

/** How long a killed command's stream may take to close before we stop waiting for it. */
const KILL_GRACE_MS = 3_000;
/** Tries to start a command while the runtime finds no free process slot. */
const START_ATTEMPTS = 6;

/** A user name as the contract takes it (no numeric ids, no `user:group`): what every backend can resolve. */
const USER_NAME = /^[a-z_][a-z0-9_.-]*\$?$/i;

/** What a sandbox gives each of its commands unless the command says otherwise. */
export interface CommandDefaults {
  env?: Record<string, string>;
  workdir?: string;
}

type Bounded = ExecOptions & { timeoutMs: number; maxOutputBytes: number };

/** `KEY=value` entries, refusing names and values the engine would mangle. */
export function envList(env: Record<string, string> | undefined): string[] {
  return Object.entries(env ?? {}).map(([k, v]) => {
    if (!k || k.includes('=') || k.includes('\0') || v.includes('\0'))
      throw new UserError(`sandbox: invalid environment variable ${JSON.stringify(k)}`);
    return `${k}=${v}`;
  });
}

function bounded(options: ExecOptions): Bounded {
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS;
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1))
    throw new UserError(`sandbox exec: timeout must be a positive number of milliseconds, got ${timeoutMs}`);
  if (!(Number.isInteger(maxOutput) && maxOutput >= 0))
    throw new UserError(`sandbox exec: output cap must be a whole number of bytes, got ${maxOutput}`);
  if (options.user !== undefined && !USER_NAME.test(options.user)) throw new UserError(`sandbox exec: run as a user name, not "${options.user}"`);
  return { ...options, timeoutMs, maxOutputBytes: maxOutput };
}

/** Runs one command to its end, its timeout or its abort, killing what it leaves behind (see kill.ts). */
export async function execCommand(
  c: SandboxContainer,
  oom: OomWatch,
  defaults: CommandDefaults,
  command: string[] | string,
  options: ExecOptions,
): Promise<ExecResult> {
  const argv = typeof command === 'string' ? ['/bin/sh', '-c', command] : command;
  if (argv.length === 0 || !argv[0]) throw new UserError('sandbox exec: empty command');
  const limits = bounded(options);
  // The marker goes first among the command's variables (see kill.ts); sandbox-wide ones follow.
  const env = [...envList(defaults.env), ...envList(options.env)];
  options.signal?.throwIfAborted();
  const started = Date.now();
  // When every process slot is taken (e.g. by what an earlier command left running with
  // keepBackground), the runtime cannot even start the command: retry a little, then say so.
  for (let attempt = 1; ; attempt++) {
    const remaining = limits.timeoutMs - (Date.now() - started);
    const result = await runOnce(c, oom, argv, env, { ...limits, timeoutMs: Math.max(1, remaining) }, defaults.workdir);
    if (result !== 'not-started') return { ...result, durationMs: Date.now() - started };
    if (attempt >= START_ATTEMPTS || Date.now() - started >= limits.timeoutMs) {
      throw new SandboxError('could not start a command: the sandbox has no free process slot (its pids limit is used up)');
    }
    await delay(Math.min(1_000, 50 * 2 ** attempt));
  }
}

/** Whichever comes first: the command's end, its timeout, or its abort. */
async function raceEnd<T>(ended: Promise<T>, options: Bounded): Promise<T | 'timeout' | 'abort'> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<'timeout' | 'abort'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    onAbort = () => resolve('abort');
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([ended, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }
}

async function runOnce(
  c: SandboxContainer,
  oom: OomWatch,
  argv: string[],
  env: string[],
  options: Bounded,
  workdir: string | undefined,
): Promise<ExecResult | 'not-started'> {
  const user = options.user ?? ROOT_USER;
  const token = randomBytes(12).toString('hex');
  const stdout = new CappedOutput(options.maxOutputBytes);
  const stderr = new CappedOutput(options.maxOutputBytes);
  const stdin = options.stdin === undefined ? undefined : typeof options.stdin === 'string' ? Buffer.from(options.stdin) : options.stdin;
  const cwd = options.cwd ?? workdir;
  const launched = await c.launch({
    argv: wrapCommand(argv, token, options.keepBackground),
    env: [`${EXEC_MARKER_VAR}=${token}`, ...env],
    user,
    ...(cwd ? { cwd } : {}),
    ...(stdin !== undefined ? { stdin } : {}),
    stdout,
    stderr,
  });
  launched.ended.catch(() => undefined); // lost the race to the deadline: its result no longer matters
  const ended = await raceEnd(launched.ended, options);
  if (ended === 'busy') return 'not-started';
  let oomKilled = false;
  if (ended === 'timeout' || ended === 'abort') {
    // Kill first, and ask about OOM kills meanwhile: a timeout must return promptly. An engine that no longer
    // answers makes it an infrastructure error, never a command that ran out of time.
    const [, killedByOom] = await withEngineDeadline('stop a command that ran out of time', () =>
      Promise.all([
        killTree(c, token, user).then(async () => {
          // Something outside the tree may still hold the output open: stop listening rather than hang.
          await Promise.race([launched.ended.catch(() => undefined), delay(KILL_GRACE_MS)]);
        }),
        oom.newKills(),
      ]),
    ).finally(() => launched.abandon());
    oomKilled = killedByOom;
    if (ended === 'abort') {
      throw options.signal?.reason instanceof Error ? options.signal.reason : new DOMException('the command was aborted', 'AbortError');
    }
  } else if (ended.exitCode === 137) {
    oomKilled = await oom.newKills();
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
