import type { Parser } from 'web-tree-sitter';
import { withTreeSync } from '../../python/sync.js';
import { cutItemMutation, DEF, type CutFound, type CutKind } from './cut-item.js';
import type { FilePatch } from './patch.js';
import type { SweVariant, KindInput } from './types.js';

/** `assert list(actual) == [` opening a list the hunk cuts off: the subject is a plain expression, no call with arguments of its own but a name. */
const OPENING = /^(\s*)assert\s+([A-Za-z_][\w.]*(?:\([A-Za-z_][\w.]*\))?)\s*==\s*\[\s*$/;
/** One complete element of the list on its own line: a single-line string and its comma. */
const ELEMENT = /^\s*((['"])(?:(?!\2|\\).|\\.)*\2),\s*$/;

/** In one hunk: an assertion of the test that opens an expected list, and the first added element of it with text. */
function findIn(parser: Parser, file: FilePatch, hunkIndex: number, name: string): CutFound | undefined {
  const hunk = file.hunks[hunkIndex]!;
  let fn = DEF.exec(hunk.context)?.[1];
  let newLine = hunk.newStart;
  let opening: CutFound['opening'] | undefined;
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
      return { file, hunkIndex, opening, item: { hunkLine, text: element, newLine: line } };
  }
  return undefined;
}

const CUT_LIST: CutKind = { name: 'cut-list', item: 'element', findIn };

/**
 * An expected list the hunk cuts off (`assert list(actual) == [` above elements the patch adds,
 * its end below the hunk): the one-off changes one added element, so the list the fixed code
 * produces differs; the conflicting variant asserts, before it, that the element is not in the
 * subject, which the list equality says it is.
 */
export function cutListMutation(input: KindInput): Generator<SweVariant> {
  return cutItemMutation(CUT_LIST, input);
}
