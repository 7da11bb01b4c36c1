/**
 * Unified diffs as data, read and written byte for byte: what is not changed is emitted exactly as
 * it came, and a changed hunk gets its header recomputed from its lines.
 */

export type LineOp = ' ' | '+' | '-' | '\\';

export interface PatchLine {
  op: LineOp;
  /** The line without its op character and without the newline. */
  text: string;
}

export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  /** What follows the second `@@`: git's enclosing-function context, e.g. ` def test_x(self):`. */
  context: string;
  /** The header line as it came; re-emitted unless the hunk changed. */
  header: string;
  lines: PatchLine[];
  changed?: boolean;
}

export interface FilePatch {
  /** Header lines before the first hunk (`diff --git`, `index`, `---`, `+++`, modes), verbatim. */
  header: string[];
  /** Paths without their `a/` / `b/` prefix; `/dev/null` for a created or deleted side. */
  oldPath: string;
  newPath: string;
  hunks: Hunk[];
  /** A single hunk spanning the whole file, made from its base text (see whole-file.ts). */
  fullContext?: boolean;
}

export interface Patch {
  /** Lines before the first file (commit messages and the like), verbatim. */
  preamble: string[];
  files: FilePatch[];
  /** Lines after the last hunk that belong to no file, verbatim. */
  trailer: string[];
  endsWithNewline: boolean;
}

export class PatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchError';
  }
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

function stripPrefix(path: string): string {
  const p = path.split('\t')[0]!.trim();
  if (p === '/dev/null') return p;
  return p.replace(/^[ab]\//, '');
}

/** Reads a unified diff (git or plain). Throws PatchError naming the line that is wrong. */
export function parsePatch(text: string): Patch {
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const patch: Patch = { preamble: [], files: [], trailer: [], endsWithNewline };
  let i = 0;
  const startsFile = (k: number) => lines[k]!.startsWith('diff --git ') || (lines[k]!.startsWith('--- ') && lines[k + 1]?.startsWith('+++ '));
  while (i < lines.length && !startsFile(i)) patch.preamble.push(lines[i++]!);
  while (i < lines.length) {
    if (!startsFile(i)) {
      // Only trailing text (a signature, blank lines) may follow the last file.
      if (lines.slice(i).some((l) => HUNK.test(l)))
        throw new PatchError(`line ${i + 1}: text between files: ${JSON.stringify(lines[i]!.slice(0, 60))}`);
      patch.trailer = lines.slice(i);
      break;
    }
    const file: FilePatch = { header: [], oldPath: '', newPath: '', hunks: [] };
    if (lines[i]!.startsWith('diff --git ')) {
      file.header.push(lines[i]!);
      const m = /^diff --git a\/(.*) b\/(.*)$/.exec(lines[i]!);
      if (m) [file.oldPath, file.newPath] = [m[1]!, m[2]!];
      i++;
    }
    while (i < lines.length && !lines[i]!.startsWith('@@') && !lines[i]!.startsWith('diff --git ')) {
      const l = lines[i]!;
      if (l.startsWith('--- ') && file.header.some((h) => h.startsWith('--- '))) break;
      if (l.startsWith('--- ')) file.oldPath = stripPrefix(l.slice(4));
      else if (l.startsWith('+++ ')) file.newPath = stripPrefix(l.slice(4));
      file.header.push(l);
      i++;
    }
    while (i < lines.length && lines[i]!.startsWith('@@')) {
      const m = HUNK.exec(lines[i]!);
      if (!m) throw new PatchError(`line ${i + 1}: malformed hunk header ${JSON.stringify(lines[i])}`);
      const hunk: Hunk = {
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        context: m[5]!,
        header: lines[i]!,
        lines: [],
      };
      i++;
      let oldSeen = 0;
      let newSeen = 0;
      while (i < lines.length && (oldSeen < hunk.oldCount || newSeen < hunk.newCount || lines[i]!.startsWith('\\'))) {
        const l = lines[i]!;
        const op = (l === '' ? ' ' : l[0]) as LineOp;
        if (op !== ' ' && op !== '+' && op !== '-' && op !== '\\')
          throw new PatchError(
            `line ${i + 1}: hunk ends early (expected ${hunk.oldCount - oldSeen} more old and ${hunk.newCount - newSeen} more new lines)`,
          );
        if (op !== '+' && op !== '\\') oldSeen++;
        if (op !== '-' && op !== '\\') newSeen++;
        hunk.lines.push({ op, text: l.slice(1) });
        i++;
      }
      if (oldSeen !== hunk.oldCount || newSeen !== hunk.newCount)
        throw new PatchError(
          `hunk ${JSON.stringify(hunk.header)} of ${file.newPath || file.oldPath}: the header counts ${hunk.oldCount}/${hunk.newCount} lines, the body has ${oldSeen}/${newSeen}`,
        );
      file.hunks.push(hunk);
    }
    if (!file.oldPath && !file.newPath) throw new PatchError(`line ${i + 1}: a file section with no paths`);
    patch.files.push(file);
  }
  return patch;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/** Recounts a hunk's lines into its header. */
export function recount(hunk: Hunk): void {
  hunk.oldCount = hunk.lines.filter((l) => l.op === ' ' || l.op === '-').length;
  hunk.newCount = hunk.lines.filter((l) => l.op === ' ' || l.op === '+').length;
  hunk.header = `@@ -${range(hunk.oldStart, hunk.oldCount)} +${range(hunk.newStart, hunk.newCount)} @@${hunk.context}`;
}

export function formatPatch(patch: Patch): string {
  const out: string[] = [...patch.preamble];
  for (const file of patch.files) {
    out.push(...file.header);
    for (const hunk of file.hunks) {
      out.push(hunk.header);
      for (const l of hunk.lines) out.push(l.op + l.text);
    }
  }
  out.push(...patch.trailer);
  return out.join('\n') + (patch.endsWithNewline ? '\n' : '');
}

/** The new-file line number of each hunk line that exists in the new file (context and added). */
export function newLineNumbers(hunk: Hunk): (number | undefined)[] {
  let n = hunk.newStart;
  return hunk.lines.map((l) => (l.op === ' ' || l.op === '+' ? n++ : undefined));
}

/** Whether a path looks like a Python test file. */
export function isPythonTestFile(path: string): boolean {
  if (!path.endsWith('.py') || path === '/dev/null') return false;
  const parts = path.split('/');
  const base = parts[parts.length - 1]!;
  return (
    base.startsWith('test') || base.endsWith('_test.py') || base === 'tests.py' || parts.some((p) => p === 'tests' || p === 'test' || p === 'testing')
  );
}
