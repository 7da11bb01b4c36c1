import { parsePatch } from 'diff';

interface Patch {
  oldFileName: string | undefined;
  newFileName: string | undefined;
  hunks: { oldStart: number; newStart: number; lines: string[] }[];
}

/** Files and hunks by their markers alone, trusting no line count. */
function lenientPatches(text: string): Patch[] {
  const patches: Patch[] = [];
  let current: Patch | null = null;
  let hunk: Patch['hunks'][number] | null = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      current = { oldFileName: line.slice(4).split('\t')[0], newFileName: lines[i + 1]!.slice(4).split('\t')[0], hunks: [] };
      patches.push(current);
      hunk = null;
      i++;
      continue;
    }
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header && current) {
      hunk = { oldStart: Number(header[1]), newStart: Number(header[2]), lines: [] };
      current.hunks.push(hunk);
      continue;
    }
    if (hunk && /^[ +\-\\]/.test(line)) hunk.lines.push(line);
    else hunk = null;
  }
  return patches;
}

/** One file of a unified diff, as the classifier reads it. */
export interface FileChange {
  /** Path without the `a/` or `b/` prefix; the old path when the file was deleted. */
  path: string;
  created: boolean;
  deleted: boolean;
  /** Lines the change added, by 1-based line of the new file. */
  added: Map<number, string>;
  /** Lines the change removed, by 1-based line of the old file. */
  removed: Map<number, string>;
  /**
   * The new file as far as the diff shows it: hunk lines at their own line numbers, blank lines
   * between hunks, so a parser's rows are the file's lines.
   */
  after: string;
}

function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined || name === '/dev/null') return undefined;
  return name.replace(/^[ab]\//, '');
}

/** Reads every file of a diff; text that is no diff gives no files. */
export function readDiff(text: string): FileChange[] {
  if (!text.trim()) return [];
  let patches: Patch[];
  try {
    patches = parsePatch(text);
  } catch {
    // Hunk headers whose line counts are off (hand-edited or truncated diffs): read the lines as they are.
    patches = lenientPatches(text);
  }
  const files: FileChange[] = [];
  for (const p of patches) {
    const oldPath = stripPrefix(p.oldFileName);
    const newPath = stripPrefix(p.newFileName);
    const path = newPath ?? oldPath;
    if (path === undefined) continue;
    const added = new Map<number, string>();
    const removed = new Map<number, string>();
    const after: string[] = [];
    for (const hunk of p.hunks) {
      let oldLine = hunk.oldStart;
      let newLine = hunk.newStart;
      while (after.length < newLine - 1) after.push('');
      for (const line of hunk.lines) {
        const mark = line[0];
        const body = line.slice(1);
        if (mark === '+') {
          added.set(newLine, body);
          after[newLine - 1] = body;
          newLine++;
        } else if (mark === '-') {
          removed.set(oldLine, body);
          oldLine++;
        } else if (mark === ' ') {
          after[newLine - 1] = body;
          oldLine++;
          newLine++;
        }
        // `\ No newline at end of file` marks nothing.
      }
    }
    files.push({ path, created: oldPath === undefined, deleted: newPath === undefined, added, removed, after: `${after.join('\n')}\n` });
  }
  return files;
}
