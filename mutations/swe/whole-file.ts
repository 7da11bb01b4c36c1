import { structuredPatch } from 'diff';
import { ApplyError } from './apply.js';
import { formatPatch, type FilePatch, type Hunk, type Patch, type PatchLine, parsePatch } from './patch.js';

/**
 * One file section of a patch widened to the whole file: a single hunk from line 1 to the end,
 * every base line outside the patch's hunks as context. The engine reads it like any hunk, so an
 * assertion anywhere in the file can be reached. Throws ApplyError when the patch does not fit.
 */
export function fullContextFile(base: string, file: FilePatch): FilePatch {
  const old = base === '' ? [] : (base.endsWith('\n') ? base.slice(0, -1) : base).split('\n');
  const lines: PatchLine[] = [];
  let at = 0;
  for (const hunk of file.hunks) {
    const start = Math.max(0, hunk.oldStart - 1 + (hunk.oldCount === 0 ? 1 : 0));
    if (start < at) throw new ApplyError(`${file.newPath}: hunk ${hunk.header} overlaps the one before it`);
    for (; at < start; at++) lines.push({ op: ' ', text: old[at]! });
    for (const l of hunk.lines) {
      if (l.op === '\\') continue;
      if (l.op !== '+' && old[at] !== l.text) throw new ApplyError(`${file.newPath}: line ${at + 1} is not what hunk ${hunk.header} expects`);
      if (l.op !== '+') at++;
      lines.push(l);
    }
  }
  for (; at < old.length; at++) lines.push({ op: ' ', text: old[at]! });
  const oldCount = lines.filter((l) => l.op !== '+').length;
  const newCount = lines.filter((l) => l.op !== '-').length;
  const hunk: Hunk = { oldStart: 1, oldCount, newStart: 1, newCount, context: '', header: `@@ -1,${oldCount} +1,${newCount} @@`, lines };
  return { ...file, hunks: [hunk], fullContext: true };
}

/** The patch with every file whose base text is known widened to the whole file; undefined when none is. */
export function fullContextPatch(patch: Patch, baseFiles: ReadonlyMap<string, string>, only: (f: FilePatch) => boolean): Patch | undefined {
  let widened = 0;
  const files = patch.files.map((f) => {
    const base = baseFiles.get(f.oldPath);
    if (base === undefined || !only(f)) return f;
    try {
      widened++;
      return fullContextFile(base, f);
    } catch (err) {
      if (!(err instanceof ApplyError)) throw err;
      widened--;
      return f;
    }
  });
  return widened > 0 ? { ...patch, files } : undefined;
}

/**
 * A patch made on widened files, narrowed back to git's usual three lines of context: each widened
 * file's section is diffed anew from its base text to what the variant makes of it, so the variant
 * still applies to the base commit like the original test patch.
 */
export function narrowPatch(text: string, widened: Patch, baseFiles: ReadonlyMap<string, string>): string {
  const patch = parsePatch(text);
  const files = patch.files.map((f, i) => {
    if (!widened.files[i]?.fullContext) return f;
    const base = baseFiles.get(f.oldPath)!;
    const after = f.hunks[0]!.lines.filter((l) => l.op !== '-' && l.op !== '\\').map((l) => `${l.text}\n`);
    const diff = structuredPatch(f.oldPath, f.newPath, base, after.join(''), '', '', { context: 3 });
    const hunks: Hunk[] = diff.hunks.map((h) => {
      const lines = h.lines.map((l) => ({ op: l[0] as PatchLine['op'], text: l.slice(1) }));
      const header = `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
      return { oldStart: h.oldStart, oldCount: h.oldLines, newStart: h.newStart, newCount: h.newLines, context: '', header, lines };
    });
    return { ...f, hunks };
  });
  return formatPatch({ ...patch, files });
}
