import type { Readable } from 'node:stream';
import { UserError } from '../core/errors.js';
import { packFiles, unpackArchive } from './archive.js';
import { NO_TAR, readThroughChannel, writeThroughChannel } from './channel-files.js';
import { withEngineDeadline } from './deadline.js';
import { archiveStream } from './dockerode-calls.js';
import { SandboxError, engineStatus } from './errors.js';
import type { SandboxContainer } from './sandbox-container.js';
import type { FileToWrite } from './types.js';

/** Files in and out of one sandbox as tar: through the command channel when it has one, else the engine's archive calls. */

export async function writeFiles(c: SandboxContainer, files: FileToWrite[]): Promise<void> {
  const channel = await c.openChannel();
  if (channel && (await withEngineDeadline('write files', () => writeThroughChannel(channel, files))) !== NO_TAR) return;
  const archive = packFiles(files);
  try {
    await withEngineDeadline('write files', (abortSignal) => c.container.putArchive(archive, { path: '/', abortSignal }));
  } catch (err) {
    throw await c.explainFailure('could not write files', err);
  }
}

export async function readFile(c: SandboxContainer, path: string, linksFollowed = 0): Promise<Buffer> {
  const entries = await getArchive(c, path);
  const file = entries.files.get(entries.root);
  if (file) return file;
  if (entries.isDirectory) throw new SandboxError(`${path} is a folder, not a file`);
  if (entries.linkTarget !== undefined) {
    if (linksFollowed >= 16) throw new SandboxError(`${path}: too many levels of symbolic links`);
    const target = entries.linkTarget.startsWith('/') ? entries.linkTarget : `${path.replace(/\/[^/]*$/, '')}/${entries.linkTarget}`;
    return readFile(c, target, linksFollowed + 1);
  }
  throw new SandboxError(`${path} is not a regular file`);
}

export async function readDir(c: SandboxContainer, path: string): Promise<Map<string, Buffer>> {
  const entries = await getArchive(c, path);
  if (!entries.isDirectory) throw new SandboxError(`${path} is not a folder`);
  const out = new Map<string, Buffer>();
  const prefix = `${entries.root}/`;
  for (const [name, content] of entries.files) {
    if (name.startsWith(prefix)) out.set(name.slice(prefix.length), content);
  }
  return out;
}

async function getArchive(c: SandboxContainer, path: string) {
  if (!path.startsWith('/')) throw new UserError(`sandbox: path must be absolute: ${path}`);
  const channel = await c.openChannel();
  const read = channel && (await withEngineDeadline(`read ${path}`, () => readThroughChannel(channel, path)));
  if (read && read !== NO_TAR) return read;
  let stream: Readable;
  try {
    stream = await withEngineDeadline(`read ${path}`, () => archiveStream(c.container, path));
  } catch (err) {
    if (engineStatus(err) === 404) throw new SandboxError(`no such file or folder in the sandbox: ${path}`, { cause: err });
    throw await c.explainFailure(`could not read ${path}`, err);
  }
  return unpackArchive(stream);
}
