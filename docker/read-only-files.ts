import { statSync } from 'node:fs';
import { isAbsolute, normalize, relative } from 'node:path';
import { UserError } from '../core/errors.js';
import type { ReadOnlyFile } from './types.js';

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Checks single files to be shown read-only in a sandbox: absolute paths, a regular file on this host (so never a
 * folder such as the home, nor an engine's socket), never over the sandbox's own system or work folders.
 */
export function checkReadOnlyFiles(files: readonly ReadOnlyFile[]): void {
  for (const { source, target } of files) {
    if (!isAbsolute(source) || !isAbsolute(target)) throw new UserError(`sandbox: a read-only file needs absolute paths, got ${source} -> ${target}`);
    const src = normalize(source);
    const dst = normalize(target);
    if (
      ['/', '/bin', '/usr', '/etc', '/proc', '/sys', '/dev', '/tmp', '/work', '/testbed'].some((d) => dst === d) ||
      inside('/proc', dst) ||
      inside('/sys', dst)
    ) {
      throw new UserError(`sandbox: a read-only file may not cover ${target}`);
    }
    let kind: string;
    try {
      const st = statSync(src);
      kind = st.isFile() ? 'file' : st.isDirectory() ? 'folder' : 'special file';
    } catch {
      throw new UserError(`sandbox: ${source} does not exist on this host`);
    }
    if (kind !== 'file') throw new UserError(`sandbox: ${source} is a ${kind}; only single regular files are shown read-only`);
  }
}

/** The engine's mounts for them: binds, read-only, never propagated. */
export function readOnlyMounts(files: readonly ReadOnlyFile[]): { Type: 'bind'; Source: string; Target: string; ReadOnly: true }[] {
  return files.map((f) => ({ Type: 'bind', Source: normalize(f.source), Target: normalize(f.target), ReadOnly: true }));
}
