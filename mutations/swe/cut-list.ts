import type { Parser } from 'web-tree-sitter';
import { withTreeSync } from '../../python/sync.js';
import type { MutationType } from '../outcome.js';
import type { Rng } from '../rng.js';
import { changedItem } from './data-row-variant.js';
import { withHunkLines } from './emit.js';
import { parsePatch, type FilePatch, type Patch, type PatchLine } from './patch.js';
import { fileMayHold, type TestRef } from './test-id.js';
import type { SweMutation } from './types.js';

const DEF = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/;
/** `assert list(actual) == [` opening a list the hunk cuts off: the subject is a plain expression, no call with arguments of its own but a name. */
const OPENING = /^(\s*)assert\s+([A-Za-z_][\w.]*(?:\([A-Za-z_][\w.]*\))?)\s*==\s*\[\s*$/;
/** One complete element of the list on its own line: a single-line string and its comma. */
const ELEMENT = /^\s*((['"])(?:(?!\2|\\).|\\.)*\2),\s*$/;

interface Found {
  file: FilePatch;
  hunkIndex: number;
  opening: { hunkLine: number; indent: string; subject: string; newLine: number };
  element: { hunkLine: number; text: string; newLine: number };
}

/** In one hunk: an assertion of the test that opens an expected list, and the first added element of it with text. */
function findIn(parser: Parser, file: FilePatch, hunkIndex: number, name: string): Found | undefined {
  const hunk = file.hunks[hunkIndex]!;
  let fn = DEF.exec(hunk.context)?.[1];
  let newLine = hunk.newStart;
  let opening: Found['opening'] | undefined;
  for (const [hunkLine, l] of hunk.lines.entries()) {
    if (l.op !== ' ' && l.op !== '+') continue;
    const line = newLine++;
    const def = DEF.exec(l.text)?.[1];
    if (def) {
      fn = def;
      opening = undefined;
      continue;
    }
    const open = OPENING.exec(l.text);
    if (open && fn === name) {
      opening = { hunkLine, indent: open[1]!, subject: open[2]!, newLine: line };
      continue;
    }
    if (!opening) continue;
    // The list ends (or the statement): nothing below belongs to it.
    if (l.text.trim() && l.text.length - l.text.trimStart().length <= opening.indent.length) return undefined;
    const element = ELEMENT.exec(l.text)?.[1];
    if (l.op === '+' && element && /\w/.test(element) && withTreeSync(parser, `${element}\n`, (t) => !t.rootNode.hasError))
      return { file, hunkIndex, opening, element: { hunkLine, text: element, newLine: line } };
  }
  return undefined;
}

/**
 * An expected list the hunk cuts off (`assert list(actual) == [` above elements the patch adds,
 * its end below the hunk): the one-off changes one added element, so the list the fixed code
 * produces differs; the conflicting variant asserts, before it, that the element is not in the
 * subject, which the list equality says it is.
 */
export function cutListMutation(
  parser: Parser,
  patch: Patch,
  testFiles: readonly FilePatch[],
  refs: readonly TestRef[],
  type: MutationType,
  rng: Rng,
  seed: number,
): SweMutation | undefined {
  for (const ref of refs) {
    if (!ref.name || ref.description !== undefined) continue;
    for (const file of testFiles) {
      if (!fileMayHold(ref, file.newPath)) continue;
      for (let h = 0; h < file.hunks.length; h++) {
        const found = findIn(parser, file, h, ref.name);
        const made = found ? variantOf(parser, patch, found, ref, type, rng, seed) : undefined;
        if (made) return made;
      }
    }
  }
  return undefined;
}

function variantOf(parser: Parser, patch: Patch, f: Found, ref: TestRef, type: MutationType, rng: Rng, seed: number): SweMutation | undefined {
  const hunk = f.file.hunks[f.hunkIndex]!;
  const lines: PatchLine[] = hunk.lines.map((l) => ({ ...l }));
  let record: { line: number; before: string; after: string; strategy: string };
  if (type === 'oneoff') {
    const changed = changedItem(parser, f.element.text, rng);
    if (!changed) return undefined;
    const old = hunk.lines[f.element.hunkLine]!.text;
    const text = old.replace(f.element.text, changed.text);
    lines[f.element.hunkLine] = { op: '+', text };
    record = { line: f.element.newLine, before: old.trim(), after: text.trim(), strategy: `cut-list/element/${changed.strategy}` };
  } else {
    const added = `${f.opening.indent}assert ${f.element.text} not in ${f.opening.subject}`;
    const at = f.opening.hunkLine;
    const opening = hunk.lines[at]!;
    lines.splice(at, 0, { op: '+', text: added });
    record = { line: f.opening.newLine, before: opening.text.trim(), after: added.trim(), strategy: 'duplicate/cut-list/element-absent' };
  }
  const testPatch = withHunkLines(patch, { file: f.file, hunkIndex: f.hunkIndex, hunk }, lines);
  try {
    parsePatch(testPatch);
  } catch {
    return undefined;
  }
  return { ok: true, testPatch, wholeFunction: false, record: { type, seed, file: f.file.newPath, testId: ref.raw, ...record } };
}
