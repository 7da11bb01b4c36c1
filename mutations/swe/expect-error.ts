import type { Parser } from 'web-tree-sitter';
import type { MutationType } from '../outcome.js';
import { kids, type Node } from '../../python/parser.js';
import { withHunkLines } from './emit.js';
import { closedAfter, functionParses, isBlank, leading, type Region, type RegionFunction } from './fragment.js';
import { parsePatch, type Patch, type PatchLine } from './patch.js';
import { assertsItself } from './assertion-helper.js';

/**
 * The last resort for a target test with no expectation to change (a smoke test, a figure
 * comparison): its final call of the code under test, which the gold patch runs to completion
 * since the test passes, is made to expect an error instead. An `assert` or a call to an
 * assertion helper is never wrapped: a check that raises is no contradiction of the spec. One-off wraps it in
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

/** Whether `node` lies in a function or lambda nested inside `fn`. */
function nestedIn(node: Node, fn: Node): boolean {
  for (let p = node.parent; p && p.id !== fn.id; p = p.parent) if (p.type === 'function_definition' || p.type === 'lambda') return true;
  return false;
}

/** Rows that continue a multi-line string inside `s`: their text is content, so it keeps its indentation. */
function stringContinuations(s: Node): Set<number> {
  const rows = new Set<number>();
  for (const str of [s, ...s.descendantsOfType('string')]) {
    if (str?.type !== 'string') continue;
    for (let r = str.startPosition.row + 1; r <= str.endPosition.row; r++) rows.add(r);
  }
  return rows;
}

/** Displays: an assignment of one builds a table of data rather than running the code under test. */
const DATA = new Set([
  'list',
  'tuple',
  'dictionary',
  'set',
  'parenthesized_expression',
  'list_comprehension',
  'dictionary_comprehension',
  'set_comprehension',
]);

const SIMPLE = new Set(['expression_statement', 'assert_statement', 'delete_statement']);

/** Why a statement of the function's body cannot be wrapped, or undefined when it can. */
function whyNotWrappable(region: Region, fn: Node, s: Node): string | undefined {
  if (s.startPosition.row < region.prefixLines || s.hasError) return 'is cut off by the hunk';
  const expectation = assertsItself(s, fn);
  if (expectation) return expectation;
  if (s.type === 'expression_statement' && kids(s)[0]?.type === 'string') return 'is a docstring';
  if (UNWRAPPABLE.has(s.type)) return `is ${/^[aeiou]/.test(s.type) ? 'an' : 'a'} ${s.type.replace(/_/g, ' ')}`;
  // Expecting a literal or a table of data to raise would be a test no code could pass.
  if (s.descendantsOfType('call').length === 0) return 'calls nothing';
  const assigned = s.type === 'expression_statement' ? kids(s)[0] : undefined;
  const value = assigned?.type === 'assignment' ? assigned.childForFieldName('right') : undefined;
  if (value && DATA.has(value.type)) return 'only builds data';
  // A compound statement is whole only when the hunk shows what comes after it.
  if (!SIMPLE.has(s.type) && !closedAfter(region, s.endPosition.row, s.startPosition.column)) return 'is cut off by the hunk';
  const rows = region.source.split('\n');
  for (let r = s.startPosition.row; r <= s.endPosition.row; r++) {
    // A row blanked to make the hunk parse is not the text the patch holds.
    if (rows[r] !== region.lines[r - region.prefixLines]?.text) return 'is cut off by the hunk';
  }
  const first = region.lines[s.startPosition.row - region.prefixLines]!.text;
  const last = region.lines[s.endPosition.row - region.prefixLines]!.text;
  const rest = last.slice(s.endPosition.column).trim();
  if (leading(first).length !== s.startPosition.column || (rest !== '' && !rest.startsWith('#'))) return 'shares a line';
  return undefined;
}

/**
 * The statement to wrap: the function's last, when the hunks show its end; else the last one
 * shown that the patch adds, since the rest of what is shown may be setup the test only leans on.
 * It must lie in the function's own body, shown whole, and call something. The gold patch runs
 * every such statement to its end, since the test passes, unless the test can return early.
 */
function statementToWrap(region: Region, fn: RegionFunction, classes: number): Node | string {
  const body = fn.node.childForFieldName('body');
  let statements = body ? kids(body).filter((c) => c.type !== 'comment') : [];
  const shown = (list: Node[]) => list.some((s) => s.startPosition.row >= region.prefixLines);
  if (!shown(statements)) return 'the hunks show none of its statements';
  if (fn.partial) {
    // The `def` lies above the hunk, so a statement shown may sit in a block that starts there
    // too (an `if`, a loop) and not run at all. Only the body's own indentation, four spaces a
    // level under the test's classes, proves it does.
    const indent = ' '.repeat(4 * (classes + 1));
    statements = statements.filter(
      (s) => s.startPosition.row < region.prefixLines || leading(region.lines[s.startPosition.row - region.prefixLines]!.text) === indent,
    );
    if (!shown(statements)) return 'the statements shown may sit in a block that starts above the hunk';
  }
  const exits = fn.node.descendantsOfType(['return_statement', 'yield']).filter((n): n is Node => !!n && !nestedIn(n, fn.node));
  if (exits.length > 0) return 'it may return before its last statement';
  if (closedAfter(region, fn.node.endPosition.row, fn.node.startPosition.column)) {
    // Checks at the end are passed over: the last call of the code under test before them is wrapped.
    let i = statements.length - 1;
    while (i > 0 && assertsItself(statements[i]!, fn.node)) i--;
    const problem = whyNotWrappable(region, fn.node, statements[i]!);
    const which = i === statements.length - 1 ? 'its last statement' : 'its last statement before the checks that end it';
    return problem ? `${which} ${problem}` : statements[i]!;
  }
  const added = (s: Node) => {
    for (let r = Math.max(s.startPosition.row, region.prefixLines); r <= s.endPosition.row; r++)
      if (region.lines[r - region.prefixLines]?.op === '+') return true;
    return false;
  };
  let why: string | undefined;
  for (let i = statements.length - 1; i >= 0; i--) {
    if (!added(statements[i]!)) continue;
    const problem = whyNotWrappable(region, fn.node, statements[i]!);
    if (!problem) return statements[i]!;
    why ??= `the last statement the patch adds to it ${problem}`;
  }
  return why ?? "the function's end lies outside the hunks, and the patch adds no statement to it";
}

/**
 * Makes the change in the region's hunk and emits the patch, or says why it cannot. `classes`
 * counts the classes the test id names around the test function.
 */
export function expectErrorChange(
  parser: Parser,
  patch: Patch,
  region: Region,
  fn: RegionFunction,
  classes: number,
  type: MutationType,
): ExpectErrorChange | string {
  const s = statementToWrap(region, fn, classes);
  if (typeof s === 'string') return s;
  const at = (row: number) => region.lines[row - region.prefixLines]!;
  const indent = leading(at(s.startPosition.row).text);
  // Any deeper indentation is valid; the `def` row of a partly shown function is synthetic, so
  // the file's own step cannot be read from it.
  const unit = indent.includes('\t') ? '\t' : '    ';
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
    if (!functionParses(parser, fnRows)) return 'the changed test function would not parse';
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
