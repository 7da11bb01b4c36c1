import type { Parser } from 'web-tree-sitter';
import { withTreeSync } from '../../python/sync.js';
import { cutItemMutation, DEF, type CutFound, type CutKind } from './cut-item.js';
import type { FilePatch } from './patch.js';
import type { SweVariant, KindInput } from './types.js';

/** `assert ('first piece'`: an expected text of string pieces in parentheses, opened on the assert's line. */
const OPENING = /^(\s*)assert\s+\(\s*(?:[rbuRBU]{0,2})(['"])/;

/** The string literal a line holds alone, or undefined. */
function pieceOf(parser: Parser, line: string): string | undefined {
  const text = line.trim();
  return withTreeSync(parser, `${text}\n`, (t) => {
    const expr = t.rootNode.namedChild(0);
    const s = expr?.type === 'expression_statement' ? expr.namedChild(0) : undefined;
    return !t.rootNode.hasError && expr && t.rootNode.namedChildCount === 1 && s?.type === 'string' && s.text === text ? text : undefined;
  });
}

/** The name a line assigns alone (`context = …`), or undefined. */
function assignedName(parser: Parser, line: string): string | undefined {
  return withTreeSync(parser, `${line.trim()}\n`, (t) => {
    const a = t.rootNode.namedChild(0)?.namedChild(0);
    const left = a?.type === 'assignment' ? a.childForFieldName('left') : undefined;
    return !t.rootNode.hasError && left?.type === 'identifier' ? left.text : undefined;
  });
}

/**
 * In one hunk: `name = …` right above `assert ('piece'` in the test, the pieces running on to the
 * hunk's end (so the comparison lies below it), and the first piece the patch adds with a word in it.
 */
function findIn(parser: Parser, file: FilePatch, hunkIndex: number, name: string): CutFound | undefined {
  const hunk = file.hunks[hunkIndex]!;
  let fn = DEF.exec(hunk.context)?.[1];
  const shown = hunk.lines.flatMap((l, hunkLine) => (l.op === '-' ? [] : [{ ...l, hunkLine }]));
  let newLine = hunk.newStart;
  const lines = shown.map((l) => ({ ...l, newLine: newLine++ }));
  for (const [i, l] of lines.entries()) {
    fn = DEF.exec(l.text)?.[1] ?? fn;
    const open = OPENING.exec(l.text);
    if (!open || fn !== name || i === 0) continue;
    const subject = assignedName(parser, lines[i - 1]!.text);
    const first = pieceOf(parser, l.text.slice(l.text.indexOf('(') + 1));
    const above = lines[i - 1]!.text;
    if (!subject || !first || above.length - above.trimStart().length !== open[1]!.length) continue;
    const rest = lines.slice(i + 1);
    // Every line below is a piece: the comparison and its subject lie below the hunk.
    if (rest.length === 0 || rest.some((r) => !pieceOf(parser, r.text))) continue;
    const added = rest.find((r) => r.op === '+' && /\w/.test(pieceOf(parser, r.text)!.replace(/\\[nt]/g, '')));
    if (!added) continue;
    return {
      file,
      hunkIndex,
      opening: { hunkLine: l.hunkLine, indent: open[1]!, subject, newLine: l.newLine },
      item: { hunkLine: added.hunkLine, text: pieceOf(parser, added.text)!, newLine: added.newLine },
    };
  }
  return undefined;
}

const CUT_TEXT: CutKind = { name: 'cut-text', item: 'piece', findIn };

/**
 * An expected text of string pieces (`assert ('a\n'` … over lines) whose comparison lies below
 * the hunk, right below the assignment of the text it is checked against (`context = …`): the
 * one-off changes a piece the patch adds, so the text the fixed code produces differs; the
 * conflicting variant asserts first that the piece is not in that text, which the check below
 * (equal to it, or in it) says it is.
 */
export function cutTextMutation(input: KindInput): Generator<SweVariant> {
  return cutItemMutation(CUT_TEXT, input);
}
