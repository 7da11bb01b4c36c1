import type { Parser } from 'web-tree-sitter';
import type { MutationType } from '../outcome.js';
import { kids, type Node } from '../python/parser.js';
import { withTreeSync } from '../python/sync.js';
import { withHunkLines } from './emit.js';
import { closedAfter, isBlank, type Region, type RegionFunction } from './fragment.js';
import { parsePatch, type Patch, type PatchLine } from './patch.js';

/**
 * The last resort for a target test with no expectation to change (a smoke test, a figure
 * comparison, a helper that asserts inside): its final statement, which the gold patch runs to
 * completion since the test passes, is made to expect an error instead. One-off wraps it in
 * `try: … except Exception: pass else: raise AssertionError`; conflicting puts that copy before
 * the untouched statement, since a second run after it could fail for reasons of its own (a
 * second insert of the same row) while a first run behaves exactly as the original does.
 */
export interface ExpectErrorChange {
  testPatch: string;
  /** New-file line where the change begins. */
  line: number;
  before: string;
  after: string;
  wholeFunction: boolean;
}

/** Statements that do not run to an ordinary end, or that wrapping would not mean anything for. */
const UNWRAPPABLE = new Set([
  'return_statement',
  'pass_statement',
  'raise_statement',
  'import_statement',
  'import_from_statement',
  'future_import_statement',
  'global_statement',
  'nonlocal_statement',
  'function_definition',
  'class_definition',
  'decorated_definition',
]);

const MESSAGE = 'raise AssertionError("expected an error")';

function leading(text: string): string {
  return text.slice(0, text.length - text.trimStart().length);
}

/** Whether `node` lies in a function or lambda nested inside `fn`. */
function nestedIn(node: Node, fn: Node): boolean {
  for (let p = node.parent; p && p.id !== fn.id; p = p.parent) if (p.type === 'function_definition' || p.type === 'lambda') return true;
  return false;
}

/** Rows that continue a multi-line string inside `s`: their text is content, so it keeps its indentation. */
function stringContinuations(s: Node): Set<number> {
  const rows = new Set<number>();
  for (const str of [s, ...s.descendantsOfType('string')]) {
    if (!str || str.type !== 'string') continue;
    for (let r = str.startPosition.row + 1; r <= str.endPosition.row; r++) rows.add(r);
  }
  return rows;
}

/** The statement to wrap, or why there is none. */
function finalStatement(region: Region, fn: RegionFunction): Node | string {
  const body = fn.node.childForFieldName('body');
  const statements = body ? kids(body).filter((c) => c.type !== 'comment') : [];
  const s = statements[statements.length - 1];
  if (!s) return 'it has no statement';
  if (!closedAfter(region, fn.node.endPosition.row, fn.node.startPosition.column)) return "the function's end lies outside the hunks";
  if (s.startPosition.row < region.prefixLines || s.hasError) return 'its last statement is not shown whole';
  if (UNWRAPPABLE.has(s.type) || (s.type === 'expression_statement' && kids(s)[0]?.type === 'string')) return `its last statement is a ${s.type.replace(/_/g, ' ')}`;
  // An earlier return could skip the statement: then expecting an error from it proves nothing.
  const exits = [...fn.node.descendantsOfType(['return_statement', 'yield'])].filter((n): n is Node => !!n && !nestedIn(n, fn.node));
  if (exits.length > 0) return 'it may return before its last statement';
  const rows = region.source.split('\n');
  for (let r = s.startPosition.row; r <= s.endPosition.row; r++) {
    // A row blanked to make the hunk parse is not the text the patch holds.
    if (rows[r] !== region.lines[r - region.prefixLines]?.text) return 'its last statement is not shown whole';
  }
  const first = region.lines[s.startPosition.row - region.prefixLines]!.text;
  const last = region.lines[s.endPosition.row - region.prefixLines]!.text;
  const rest = last.slice(s.endPosition.column).trim();
  if (leading(first).length !== s.startPosition.column || (rest !== '' && !rest.startsWith('#'))) return 'its last statement shares a line';
  return s;
}

/** Makes the change in the region's hunk and emits the patch, or says why it cannot. */
export function expectErrorChange(parser: Parser, patch: Patch, region: Region, fn: RegionFunction, type: MutationType): ExpectErrorChange | string {
  const s = finalStatement(region, fn);
  if (typeof s === 'string') return s;
  const at = (row: number) => region.lines[row - region.prefixLines]!;
  const defIndent = leading(region.source.split('\n')[fn.node.startPosition.row] ?? '');
  const indent = leading(at(s.startPosition.row).text);
  const unit = indent.startsWith(defIndent) && indent.length > defIndent.length ? indent.slice(defIndent.length) : '    ';
  const inStrings = stringContinuations(s);
  const original: string[] = [];
  const shifted: string[] = [];
  for (let r = s.startPosition.row; r <= s.endPosition.row; r++) {
    const text = at(r).text;
    original.push(text);
    shifted.push(inStrings.has(r) || isBlank(text) ? text : unit + text);
  }
  const wrapped = [`${indent}try:`, ...shifted, `${indent}except Exception:`, `${indent}${unit}pass`, `${indent}else:`, `${indent}${unit}${MESSAGE}`];

  const firstLine = at(s.startPosition.row).hunkLine;
  const lastLine = at(s.endPosition.row).hunkLine;
  const added = wrapped.map((text): PatchLine => ({ op: '+', text }));
  const lines: PatchLine[] = [];
  region.hunk.lines.forEach((l, i) => {
    if (type === 'conflicting' && i === firstLine) lines.push(...added);
    if (type === 'conflicting' || i < firstLine || i > lastLine) lines.push({ ...l });
    // One-off: the statement's lines leave (context turns into removal, its added lines go).
    else if (l.op !== '+') lines.push({ op: '-', text: l.text });
    if (type === 'oneoff' && i === lastLine) lines.push(...added);
  });

  const wholeFunction = fn.whole;
  if (wholeFunction) {
    const fnRows: string[] = [];
    for (let r = fn.node.startPosition.row; r <= fn.node.endPosition.row; r++) {
      if (r === s.startPosition.row) fnRows.push(...(type === 'oneoff' ? wrapped : [...wrapped, ...original]));
      if (r < s.startPosition.row || r > s.endPosition.row) fnRows.push(at(r).text);
    }
    // The `def` row is the least indented code row; string rows may be less, and keep theirs.
    const cut = leading(fnRows[0] ?? '').length;
    const text = fnRows.map((l) => (isBlank(l) ? '' : l.slice(Math.min(cut, leading(l).length)))).join('\n') + '\n';
    if (!withTreeSync(parser, text, (t) => !t.rootNode.hasError)) return 'the changed test function would not parse';
  }
  const testPatch = withHunkLines(patch, region, lines);
  try {
    parsePatch(testPatch);
  } catch (err) {
    return `the changed patch would be malformed (${(err as Error).message})`;
  }
  return {
    testPatch,
    line: at(s.startPosition.row).newLine,
    before: original.join('\n'),
    after: (type === 'oneoff' ? wrapped : [...wrapped, ...original]).join('\n'),
    wholeFunction,
  };
}
