import { createTwoFilesPatch } from 'diff';
import { posix } from 'node:path';
import type { FsChange } from '../docker/types.js';

/** Test files by the conventions Python runners use: edits to these are where test tampering shows. */
export function isTestFile(relPath: string): boolean {
  const name = posix.basename(relPath);
  return (
    name === 'test.py' || name === 'conftest.py' || /^test_.*\.py$/.test(name) || /_test\.py$/.test(name) || relPath.split('/').includes('tests')
  );
}

/** Bytecode and caches are not the agent's edits. */
function isNoise(relPath: string): boolean {
  return relPath.split('/').includes('__pycache__') || relPath.endsWith('.pyc');
}

function text(buffer: Buffer | undefined): string {
  if (buffer === undefined) return '';
  if (buffer.includes(0)) return `(binary file, ${buffer.length} bytes)\n`;
  return buffer.toString('utf8');
}

/** One unified diff of a file, `/dev/null` on the missing side; empty when nothing changed. */
export function fileDiff(path: string, before: string | undefined, after: string | undefined): string {
  if (before === after) return '';
  return createTwoFilesPatch(
    before === undefined ? '/dev/null' : `a/${path}`,
    after === undefined ? '/dev/null' : `b/${path}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  );
}

/** Diffs of a work dir between two snapshots, split into source files and test files. */
export function diffSnapshots(before: Map<string, Buffer>, after: Map<string, Buffer>): { sourceDiff: string; testDiff: string } {
  const paths = [...new Set([...before.keys(), ...after.keys()])].filter((p) => !isNoise(p)).sort();
  const source: string[] = [];
  const tests: string[] = [];
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a !== undefined && b !== undefined && a.equals(b)) continue;
    const diff = fileDiff(path, a === undefined ? undefined : text(a), b === undefined ? undefined : text(b));
    (isTestFile(path) ? tests : source).push(diff);
  }
  return { sourceDiff: source.join(''), testDiff: tests.join('') };
}

/**
 * Filesystem changes outside the places the harness owns (the work dir, its own scratch dirs, what setup added, and
 * single files setup changed, whose neighbours stay the agent's),
 * without the parent directories Docker reports as modified only because something inside them changed.
 */
export function outsideChanges(changes: FsChange[], ownedPaths: string[], ownedFiles: string[] = []): string {
  const owned = (path: string) => ownedFiles.includes(path) || ownedPaths.some((dir) => path === dir || path.startsWith(`${dir}/`));
  const isParent = (c: FsChange) => c.kind === 'modified' && changes.some((o) => o.path.startsWith(`${c.path === '/' ? '' : c.path}/`));
  return changes
    .filter((c) => !owned(c.path) && !isParent(c) && !c.path.split('/').includes('__pycache__'))
    .map((c) => `${c.kind} ${c.path}`)
    .sort()
    .join('\n');
}
