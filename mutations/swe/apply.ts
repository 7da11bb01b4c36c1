import type { FilePatch, Patch } from './patch.js';

export class ApplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApplyError';
  }
}

/**
 * The file after one file section of a patch, applied to its base text strictly: every context
 * and removed line must be where the hunk says it is (the base is the row's own base commit, so
 * nothing may drift). Throws ApplyError naming the file and line that does not match.
 */
export function applyFilePatch(base: string, file: FilePatch): string {
  const endsWithNewline = base === '' || base.endsWith('\n');
  const old = base === '' ? [] : (endsWithNewline ? base.slice(0, -1) : base).split('\n');
  const out: string[] = [];
  let at = 0;
  for (const hunk of file.hunks) {
    const start = Math.max(0, hunk.oldStart - 1 + (hunk.oldCount === 0 ? 1 : 0));
    if (start < at) throw new ApplyError(`${file.newPath}: hunk ${hunk.header} overlaps the one before it`);
    out.push(...old.slice(at, start));
    at = start;
    for (const l of hunk.lines) {
      if (l.op === '\\') continue;
      if (l.op === '+') {
        out.push(l.text);
        continue;
      }
      if (old[at] !== l.text) throw new ApplyError(`${file.newPath}: line ${at + 1} is not what hunk ${hunk.header} expects`);
      if (l.op === ' ') out.push(l.text);
      at++;
    }
  }
  out.push(...old.slice(at));
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

/** The post-patch text of each file the patch changes whose base text is known; a file that does not apply is left out. */
export function patchedFiles(patch: Patch, baseFiles: ReadonlyMap<string, string> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!baseFiles) return out;
  for (const file of patch.files) {
    const base = baseFiles.get(file.oldPath === '/dev/null' ? file.newPath : file.oldPath);
    if (base === undefined && file.oldPath !== '/dev/null') continue;
    try {
      out.set(file.newPath, applyFilePatch(base ?? '', file));
    } catch (err) {
      if (!(err instanceof ApplyError)) throw err;
    }
  }
  return out;
}
