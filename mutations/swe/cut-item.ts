import type { Parser } from 'web-tree-sitter';
import type { MutationType } from '../outcome.js';
import type { Rng } from '../rng.js';
import { changedItem } from './data-row-variant.js';
import { withHunkLines } from './emit.js';
import { parsePatch, type FilePatch, type Patch, type PatchLine } from './patch.js';
import { fileMayHold, type TestRef } from './test-id.js';
import type { SweVariant, KindInput } from './types.js';

export const DEF = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/;

/**
 * An expected value the hunk cuts off: the assertion's opening line (and what it checks), and one item of the value
 * the patch adds (a list's element, a text's piece), each placed by its line in the hunk and in the new file.
 */
export interface CutFound {
  file: FilePatch;
  hunkIndex: number;
  opening: { hunkLine: number; indent: string; subject: string; newLine: number };
  item: { hunkLine: number; text: string; newLine: number };
}

/** A kind of cut-off value: its name in the record's strategy, what an item of it is called, and how a hunk shows it. */
export interface CutKind {
  name: string;
  item: string;
  findIn(parser: Parser, file: FilePatch, hunkIndex: number, testName: string): CutFound | undefined;
}

/**
 * The first hunk of a named test that shows a cut-off value of `kind`: the one-off changes the item the patch adds,
 * so the value the fixed code produces differs; the conflicting variant asserts, before the opening, that the item
 * is not in the subject, which the check below says it is.
 */
export function* cutItemMutation(kind: CutKind, input: KindInput): Generator<SweVariant> {
  const { parser, patch, testFiles, refs, type, rng, seed } = input;
  for (const ref of refs) {
    if (!ref.name || ref.description !== undefined) continue;
    for (const file of testFiles) {
      if (!fileMayHold(ref, file.newPath)) continue;
      for (let h = 0; h < file.hunks.length; h++) {
        const found = kind.findIn(parser, file, h, ref.name);
        const made = found ? variantOf(kind, parser, patch, found, ref, type, rng, seed) : undefined;
        if (made) yield made;
      }
    }
  }
}

function variantOf(
  kind: CutKind,
  parser: Parser,
  patch: Patch,
  f: CutFound,
  ref: TestRef,
  type: MutationType,
  rng: Rng,
  seed: number,
): SweVariant | undefined {
  const hunk = f.file.hunks[f.hunkIndex]!;
  const lines: PatchLine[] = hunk.lines.map((l) => ({ ...l }));
  let record: { line: number; before: string; after: string; strategy: string };
  if (type === 'oneoff') {
    const changed = changedItem(parser, f.item.text, rng);
    if (!changed) return undefined;
    const old = hunk.lines[f.item.hunkLine]!.text;
    const text = old.replace(f.item.text, changed.text);
    lines[f.item.hunkLine] = { op: '+', text };
    record = { line: f.item.newLine, before: old.trim(), after: text.trim(), strategy: `${kind.name}/${kind.item}/${changed.strategy}` };
  } else {
    const added = `${f.opening.indent}assert ${f.item.text} not in ${f.opening.subject}`;
    lines.splice(f.opening.hunkLine, 0, { op: '+', text: added });
    const before = hunk.lines[f.opening.hunkLine]!.text.trim();
    record = { line: f.opening.newLine, before, after: added.trim(), strategy: `duplicate/${kind.name}/${kind.item}-absent` };
  }
  const testPatch = withHunkLines(patch, { file: f.file, hunkIndex: f.hunkIndex, hunk }, lines);
  try {
    parsePatch(testPatch);
  } catch {
    return undefined;
  }
  return { ok: true, testPatch, wholeFunction: false, record: { type, seed, file: f.file.newPath, testId: ref.raw, ...record } };
}
