import type Docker from 'dockerode';
import type { Duplex } from 'node:stream';
import type { CommandChannel } from './channel.js';
import { withEngineDeadline } from './deadline.js';
import { StreamDemuxer } from './demux.js';
import { SandboxError } from './errors.js';
import type { CappedOutput } from './output.js';

/** One command to start in a sandbox, already wrapped (kill.ts) and with its environment in order. */
export interface Launch {
  argv: string[];
  /** NAME=value, the kill marker first. */
  env: string[];
  user: string;
  cwd?: string;
  stdin?: Buffer;
  stdout: CappedOutput;
  stderr: CappedOutput;
}

/**
 * A started command. `ended`: its exit code, or `busy` when the runtime found no free process slot to start it;
 * rejects with a SandboxError when the sandbox broke. `abandon`: stop listening to a command whose output stays open
 * after it was killed.
 */
export interface Launched {
  ended: Promise<{ exitCode: number } | 'busy'>;
  abandon(): void;
}

/** Starts a command through the sandbox's command channel: one fork in the container, no engine call. */
export function launchOnChannel(channel: CommandChannel, l: Launch): Launched {
  const { end, abandon } = channel.run(
    {
      argv: l.argv,
      user: l.user,
      ...(l.cwd !== undefined ? { cwd: l.cwd } : {}),
      env: l.env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)] as [string, string]),
      ...(l.stdin !== undefined ? { stdin: l.stdin } : {}),
    },
    (c) => l.stdout.write(c),
    (c) => l.stderr.write(c),
  );
  const ended = end.then((e) => {
    if ('exitCode' in e) return { exitCode: e.exitCode };
    if (e.busy) return 'busy' as const;
    throw new SandboxError(`could not start a command: ${e.error}`);
  });
  return { ended, abandon };
}

/**
 * Starts a command with `docker exec`: for sandboxes without a command channel (an image with no Python 3), and for
 * one whose channel broke. `explain` turns an engine error into a SandboxError that says what happened.
 */
export async function launchOnEngine(
  container: Docker.Container,
  l: Launch,
  explain: (what: string, err: unknown) => Promise<SandboxError>,
): Promise<Launched> {
  const hasStdin = l.stdin !== undefined;
  let exec: Docker.Exec;
  let stream: Duplex;
  try {
    exec = await withEngineDeadline('start a command', (abortSignal) =>
      container.exec({
        Cmd: l.argv,
        AttachStdout: true,
        AttachStderr: true,
        AttachStdin: hasStdin,
        Tty: false,
        User: l.user,
        WorkingDir: l.cwd,
        Env: l.env,
        abortSignal,
      }),
    );
    const created = exec;
    stream = await withEngineDeadline('start a command', (abortSignal) => created.start({ hijack: hasStdin, stdin: hasStdin, abortSignal }));
  } catch (err) {
    throw await explain('could not start a command', err);
  }
  const demux = new StreamDemuxer(
    (c) => l.stdout.write(c),
    (c) => l.stderr.write(c),
  );
  let abandoned = false;
  const closed = new Promise<void>((resolve) => {
    stream.on('data', (chunk: Buffer) => demux.push(chunk));
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
  if (hasStdin) {
    stream.on('error', () => undefined); // a command that exits without reading its input
    stream.write(l.stdin!);
    // Half-close: the command sees end of input while its output keeps flowing back.
    stream.end();
  }
  // The output can close before the command ends (it may close its descriptors): the command is done only when the
  // engine says so.
  const ended = closed.then(async () => {
    const finished = await exitOf(exec, () => abandoned, explain);
    if (finished === null) return 'busy' as const; // abandoned: the caller no longer reads this
    if (finished.pid !== 0 || finished.exitCode !== 126) return { exitCode: finished.exitCode };
    // The runtime never started the process; its reason is in the output.
    const reason = `${l.stdout.text()} ${l.stderr.text()}`
      // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is the point
      .replace(/[\x00-\x08\r]/g, '')
      .replace(/^.*unable to start container process:\s*/s, '')
      .replace(/:\s*unknown\s*$/, '')
      .trim();
    if (/init-p|resource temporarily unavailable|cannot allocate|fork/i.test(reason)) return 'busy' as const;
    throw new SandboxError(`could not start a command: ${reason || 'the container runtime refused it'}`);
  });
  return {
    ended,
    abandon: () => {
      abandoned = true;
      stream.destroy();
    },
  };
}

/**
 * The exit code (and pid, 0 when the runtime never started the process) once the engine has recorded them: this can
 * lag the end of the output, or follow it by far. null once abandoned.
 */
async function exitOf(
  exec: Docker.Exec,
  abandoned: () => boolean,
  explain: (what: string, err: unknown) => Promise<SandboxError>,
): Promise<{ exitCode: number; pid: number } | null> {
  for (let wait = 10; !abandoned(); wait = Math.min(wait * 2, 250)) {
    let info: Docker.ExecInspectInfo;
    try {
      info = await withEngineDeadline('ask for the exit code of a command', (abortSignal) => exec.inspect({ abortSignal }));
    } catch (err) {
      throw await explain('lost track of a command', err);
    }
    if (!info.Running && typeof info.ExitCode === 'number') return { exitCode: info.ExitCode, pid: info.Pid };
    await new Promise((resolve) => setTimeout(resolve, wait).unref());
  }
  return null;
}
