import type { Region } from './fragment.js';
import { formatPatch, recount, type Patch, type PatchLine } from './patch.js';

function newSide(lines: readonly PatchLine[]): number {
  return lines.filter((l) => l.op === ' ' || l.op === '+').length;
}

/**
 * The whole patch again, with the region's hunk made of `lines` (its header recounted) and the
 * file's later hunks moved by the lines it gained, so every header still points where it did.
 */
export function withHunkLines(patch: Patch, region: Pick<Region, 'file' | 'hunkIndex' | 'hunk'>, lines: PatchLine[]): string {
  const shift = newSide(lines) - newSide(region.hunk.lines);
  return formatPatch({
    ...patch,
    files: patch.files.map((f) =>
      f !== region.file
        ? f
        : {
            ...f,
            hunks: f.hunks.map((h, i) => {
              if (i < region.hunkIndex || (i > region.hunkIndex && shift === 0)) return h;
              const changed = i === region.hunkIndex ? { ...h, lines } : { ...h, newStart: h.newStart + shift };
              recount(changed);
              return changed;
            }),
          },
    ),
  });
}
