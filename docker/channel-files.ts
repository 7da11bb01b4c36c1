/**
 * Files in and out of a sandbox through its command channel: a tar stream (tar-stream on the host) piped to or from
 * the container's own `tar`, run as root. This costs one fork where the engine's archive calls cost a round trip
 * through dockerd each; the streams are the same, so names, modes and owners come out as they would by the engine.
 */
import { posix } from 'node:path';
import { PassThrough } from 'node:stream';
import { archiveName, packFiles, unpackArchive, type UnpackedArchive } from './archive.js';
import type { CommandChannel } from './channel.js';
import { SandboxError } from './errors.js';
import type { FileToWrite } from './types.js';

/** The container has no `tar` to run: the caller uses the engine instead. */
export const NO_TAR = Symbol('no tar');

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Runs tar as root; its stderr, kept short, says why it failed. */
async function tar(channel: CommandChannel, args: string[], stdin: Buffer | undefined, stdout: (chunk: Buffer) => void) {
  let stderr = '';
  const { end } = channel.run(
    { argv: ['tar', ...args], user: 'root', cwd: '/', env: [['LC_ALL', 'C']], ...(stdin ? { stdin } : {}) },
    stdout,
    (chunk) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)),
  );
  const ended = await end;
  if ('error' in ended) {
    if (/no such file or directory/i.test(ended.error)) return NO_TAR;
    throw new SandboxError(`could not start tar in the sandbox: ${ended.error}`);
  }
  return { exitCode: ended.exitCode, stderr: stderr.trim() };
}

export async function writeThroughChannel(channel: CommandChannel, files: FileToWrite[]): Promise<typeof NO_TAR | undefined> {
  const archive = await collect(packFiles(files));
  // Each file replaces what is at its path (a link there is replaced, not followed), with its mode and owner.
  const done = await tar(channel, ['-x', '-p', '--same-owner', '-f', '-', '-C', '/'], archive, () => undefined);
  if (done === NO_TAR) return NO_TAR;
  if (done.exitCode !== 0) throw new SandboxError(`could not write files: ${done.stderr || `tar exit ${done.exitCode}`}`);
}

/** The path as an archive whose top entry is its base name (what the engine's archive call gives). */
export async function readThroughChannel(channel: CommandChannel, path: string): Promise<typeof NO_TAR | UnpackedArchive> {
  const relative = archiveName(path.replace(/\/+$/, '') || '/');
  const parent = posix.dirname(`/${relative}`);
  const stream = new PassThrough();
  const unpacked = unpackArchive(stream);
  unpacked.catch(() => undefined);
  let done: Awaited<ReturnType<typeof tar>>;
  try {
    done = await tar(channel, ['-c', '-f', '-', '-C', parent, '--', posix.basename(relative)], undefined, (chunk) => stream.write(chunk));
  } finally {
    stream.end();
  }
  if (done === NO_TAR) return NO_TAR;
  // Exit 1: a file changed while it was read; the archive is still whole.
  if (done.exitCode !== 0 && done.exitCode !== 1) {
    if (/Cannot stat: No such file or directory|Cannot open: No such file or directory/.test(done.stderr)) {
      throw new SandboxError(`no such file or folder in the sandbox: ${path}`);
    }
    throw new SandboxError(`could not read ${path}: ${done.stderr || `tar exit ${done.exitCode}`}`);
  }
  return unpacked;
}
