import { posix } from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { UserError } from '../core/errors.js';
import type { FileToWrite } from './types.js';

/** Checks a path given for the sandbox: absolute, no `..`, no NUL; returns it relative to `/`. */
export function archiveName(path: string): string {
  if (!path.startsWith('/')) throw new UserError(`sandbox: path must be absolute: ${JSON.stringify(path)}`);
  if (path.includes('\0')) throw new UserError(`sandbox: path contains a NUL byte: ${JSON.stringify(path)}`);
  if (path.split('/').includes('..')) throw new UserError(`sandbox: path must not contain "..": ${JSON.stringify(path)}`);
  const relative = posix.normalize(path).replace(/^\/+/, '').replace(/\/+$/, '');
  if (!relative) throw new UserError('sandbox: cannot write a file at /');
  return relative;
}

/**
 * One tar stream holding every file (names relative to `/`). Non-ASCII and long names go into PAX
 * headers, which the engine honours. Missing parent folders are created by the engine, owned by root.
 */
export function packFiles(files: FileToWrite[]): Readable {
  const pack = tar.pack();
  const mtime = new Date();
  for (const file of files) {
    const name = archiveName(file.path);
    const content = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
    pack.entry(
      {
        name,
        type: 'file',
        size: content.length,
        mode: file.mode ?? 0o644,
        uid: file.uid ?? 0,
        gid: file.gid ?? file.uid ?? 0,
        mtime,
      },
      content,
    );
  }
  pack.finalize();
  // tar-stream packs are streamx streams: a Node stream over it is what the engine client and callers take.
  return Readable.from(pack, { objectMode: false });
}

export interface UnpackedArchive {
  /** The top entry's name (the basename of the requested path), without a trailing slash. */
  root: string;
  isDirectory: boolean;
  /** Set when the requested path is a symbolic link. */
  linkTarget?: string;
  /** Regular files by archive name (`root` itself for a file, `root/sub/name` inside a folder). */
  files: Map<string, Buffer>;
}

/** What one read may hold in memory: no file the agent writes can make the host read it whole. */
export const MAX_READ_FILE_BYTES = 8 * 1024 * 1024;
export const MAX_READ_TOTAL_BYTES = 64 * 1024 * 1024;

/** What stands in for a file left unread, so a diff still shows that it is there. */
export function unreadFile(size: number, why: string): Buffer {
  return Buffer.from(`(${size} bytes not read: ${why})\n`);
}

/**
 * Reads the engine's archive of a path. Only regular files are kept; links and devices are skipped. Files over
 * MAX_READ_FILE_BYTES, and any once MAX_READ_TOTAL_BYTES were read, are streamed past and replaced by a note.
 */
export async function unpackArchive(stream: Readable): Promise<UnpackedArchive> {
  const extract = tar.extract();
  stream.on('error', (err) => extract.destroy(err));
  stream.pipe(extract);
  const files = new Map<string, Buffer>();
  let root: string | undefined;
  let isDirectory = false;
  let linkTarget: string | undefined;
  let total = 0;
  for await (const entry of extract) {
    const { header } = entry;
    const name = header.name.replace(/\/+$/, '');
    if (root === undefined) {
      root = name;
      isDirectory = header.type === 'directory';
      if (header.type === 'symlink') linkTarget = header.linkname ?? '';
    }
    if (header.type === 'file' || header.type === 'contiguous-file') {
      const size = header.size ?? 0;
      if (size > MAX_READ_FILE_BYTES || total + size > MAX_READ_TOTAL_BYTES) {
        // Streamed past in chunks: nothing of it is kept.
        for await (const chunk of entry) void chunk;
        files.set(name, unreadFile(size, size > MAX_READ_FILE_BYTES ? 'larger than a file may be to be read' : 'past what one read may hold'));
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      total += size;
      files.set(name, Buffer.concat(chunks));
    } else {
      entry.resume();
    }
  }
  return { root: root ?? '', isDirectory, linkTarget, files };
}
