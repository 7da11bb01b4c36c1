import type { Parser, Tree } from 'web-tree-sitter';
import { kids } from '../../python/parser.js';
import { withTreeSync } from '../../python/sync.js';
import type { MutationType } from '../outcome.js';
import type { Rng } from '../rng.js';
import { changedItem, inPlace, rowVariant } from './data-row-variant.js';
import { rowOf, type DataRow } from './data-rows.js';
import { regionFunctions, type Region } from './fragment.js';
import type { FilePatch, Hunk, Patch } from './patch.js';
import { fileMayHold, type TestRef } from './test-id.js';
import type { SweVariant, KindInput } from './types.js';

/** A one-line row of a table the hunk shows: a tuple of two or more values, followed by its comma. */
interface TableRow {
  /** Index of its line in the hunk. */
  at: number;
  op: ' ' | '+';
  row: DataRow;
  /** How many comment lines of the table lie above it: a comment heads a group of related rows. */
  section: number;
}

/** The new-side lines of a hunk with their indexes. */
const newSide = (hunk: Hunk) => hunk.lines.flatMap((l, at) => (l.op === ' ' || l.op === '+' ? [{ at, op: l.op, text: l.text }] : []));

const indentOf = (text: string) => text.length - text.trimStart().length;

/** The line as a one-line tuple row ending in a comma, or undefined. */
function rowLine(parser: Parser, file: FilePatch, hunkIndex: number, at: number, text: string): DataRow | undefined {
  return withTreeSync(parser, `[\n${text}\n]\n`, (tree) => {
    const list = tree.rootNode.namedChild(0)?.namedChild(0);
    if (tree.rootNode.hasError || list?.type !== 'list') return undefined;
    const [node, ...more] = kids(list);
    if (!node || more.length > 0 || node.type !== 'tuple') return undefined;
    const r = rowOf(node, 2);
    if (!r || !text.slice(r.row.end).trimStart().startsWith(',')) return undefined;
    return { file, hunkIndex, run: { first: at, last: at }, text, ...r, context: { kind: 'unknown' } };
  });
}

/** Whether a line opens a list or tuple assigned at module level (`TEST_DATA = [`), read with its bracket closed. */
function opensTable(parser: Parser, text: string): boolean {
  if (indentOf(text) > 0 || !/[[(]\s*$/.test(text)) return false;
  return [']', ')'].some((close) =>
    withTreeSync(parser, `${text}\n${close}\n`, (tree) => {
      const assignment = tree.rootNode.namedChild(0)?.namedChild(0);
      const value = assignment?.type === 'assignment' ? assignment.childForFieldName('right') : undefined;
      return !tree.rootNode.hasError && !!value && ['list', 'tuple', 'parenthesized_expression'].includes(value.type);
    }),
  );
}

/**
 * The runs of one-line rows a hunk shows at one indentation (comments and blank lines between
 * them allowed), each holding a row the patch adds, and only where the table is a module-level
 * one: the nearest line above the rows that is indented less opens it (`NAME = [` at column 0),
 * or none is shown and git's header names no function or class above the hunk at all.
 */
function moduleTables(parser: Parser, file: FilePatch): TableRow[][] {
  const out: TableRow[][] = [];
  file.hunks.forEach((hunk, hunkIndex) => {
    const lines = newSide(hunk);
    let i = 0;
    while (i < lines.length) {
      const first = lines[i]!;
      const row = rowLine(parser, file, hunkIndex, first.at, first.text);
      if (!row) {
        i++;
        continue;
      }
      const indent = indentOf(first.text);
      const rows: TableRow[] = [{ at: first.at, op: first.op, row, section: 0 }];
      let section = 0;
      let j = i + 1;
      for (; j < lines.length; j++) {
        const { at, op, text } = lines[j]!;
        if (!text.trim()) continue;
        if (text.trim().startsWith('#') && indentOf(text) === indent) {
          section++;
          continue;
        }
        const next = indentOf(text) === indent ? rowLine(parser, file, hunkIndex, at, text) : undefined;
        if (!next) break;
        rows.push({ at, op, row: next, section });
      }
      const above = lines
        .slice(0, i)
        .reverse()
        .find((l) => l.text.trim() && !l.text.trim().startsWith('#') && indentOf(l.text) < indent);
      const header = hunk.context.trim();
      const moduleLevel = above ? opensTable(parser, above.text) : header === '' || opensTable(parser, header);
      if (indent > 0 && moduleLevel && rows.some((r) => r.op === '+')) out.push(rows);
      i = j;
    }
  });
  return out;
}

/** A name the row expects as a raised class: capitalized, ending in Error or Exception, or expected by another row too. */
function isErrorClass(parser: Parser, text: string, others: readonly string[]): boolean {
  const name = withTreeSync(parser, `(${text})\n`, (tree) => {
    const node = tree.rootNode.namedChild(0)?.namedChild(0)?.namedChild(0);
    if (tree.rootNode.hasError || !node) return undefined;
    if (node.type === 'identifier') return node.text;
    return node.type === 'attribute' ? node.childForFieldName('attribute')?.text : undefined;
  });
  if (!name || !/^[A-Z]/.test(name) || name === name.toUpperCase()) return false;
  return /(Error|Exception)$/.test(name) || others.includes(text);
}

/** The last value of a row changed, and how. */
function changedExpected(parser: Parser, row: DataRow, table: readonly TableRow[], rng: Rng): { text: string; which: string } | undefined {
  const last = row.items.length - 1;
  const text = row.items[last]!.text;
  const column = table.filter((t) => t.row !== row).map((t) => t.row.items[last]!.text);
  if (isErrorClass(parser, text, column)) return { text: 'None', which: 'none-for-error' };
  const shown = column.find((v) => v !== text);
  if (shown !== undefined) return { text: shown, which: 'shown-value' };
  const changed = changedItem(parser, text, rng);
  return changed ? { text: changed.text, which: changed.strategy } : undefined;
}

/**
 * The rows worth changing, in order: rows the hunk shows as context first, since the fixed and
 * the unfixed code mostly treat them alike, so a changed one fails both. A context row in the
 * group of an added row, or near a changed line, may be one the fix is about (a check the unfixed
 * code already failed), so rows under another comment come first, the farthest from any change
 * first. Then an added row, only when the patch adds two or more: the unfixed code may satisfy
 * the changed one, but then still fails another.
 */
function rowOrder(table: readonly TableRow[], hunk: Hunk): TableRow[] {
  const added = table.filter((t) => t.op === '+');
  const changes = hunk.lines.flatMap((l, at) => (l.op === '+' || l.op === '-' ? [at] : []));
  const distance = (t: TableRow) => Math.min(...changes.map((c) => Math.abs(c - t.at)));
  const near = (t: TableRow) => (added.some((a) => a.section === t.section) ? 1 : 0);
  const context = table.filter((t) => t.op === ' ').sort((a, b) => near(a) - near(b) || distance(b) - distance(a) || a.at - b.at);
  return added.length >= 2 ? [...context, added[0]!] : context;
}

function variantOf(
  parser: Parser,
  patch: Patch,
  ref: TestRef,
  t: TableRow,
  table: readonly TableRow[],
  type: MutationType,
  rng: Rng,
  seed: number,
): SweVariant | undefined {
  const { row } = t;
  const change = changedExpected(parser, row, table, rng);
  if (!change || change.text === row.items[row.items.length - 1]!.text) return undefined;
  const after = inPlace(row, row.items.length - 1, change.text);
  const made = rowVariant(parser, patch, row, after, type);
  if (!made) return undefined;
  const strategy = `${type === 'conflicting' ? 'duplicate/' : ''}module-table/unseen-reader/${change.which}`;
  const before = row.text.slice(row.row.start, row.row.end);
  return {
    ok: true,
    testPatch: made.testPatch,
    wholeFunction: false,
    record: { type, strategy, seed, line: made.line, before, after, file: row.file.newPath, testId: ref.raw },
  };
}

/** Whether any region shows a function of the test's name in a file that may hold it. */
function bodyShown(ref: TestRef, regions: readonly { region: Region; tree: Tree }[]): boolean {
  return regions.some(
    ({ region, tree }) => fileMayHold(ref, region.file.newPath) && regionFunctions(region, tree).some((fn) => fn.name === ref.name),
  );
}

/**
 * Rows the patch adds to a module-level table (`TEST_DATA = [(validator, value, expected), …]`)
 * in the file of a FAIL_TO_PASS test whose body, the table's reader, the patch does not show.
 * The last value of one row is what the reader expects: an exception class becomes `None`, any
 * other value one the same column holds elsewhere, or a changed literal. The one-off changes the
 * row; the conflicting variant adds the changed copy right after it.
 */
export function* moduleTableMutation(input: KindInput): Generator<SweVariant> {
  const { parser, patch, testFiles, regions, refs, type, rng, seed } = input;
  // A parametrized id reads its rows through a decorator, which another kind handles.
  const readers = refs.filter((ref) => ref.name && ref.param === undefined && !ref.name.includes('[') && !bodyShown(ref, regions));
  for (const ref of readers) {
    for (const file of testFiles.filter((f) => fileMayHold(ref, f.newPath))) {
      for (const table of moduleTables(parser, file)) {
        const arity = table[0]!.row.items.length;
        if (table.some((t) => t.row.items.length !== arity)) continue;
        for (const t of rowOrder(table, file.hunks[table[0]!.row.hunkIndex]!)) {
          const made = variantOf(parser, patch, ref, t, table, type, rng, seed);
          if (made) yield made;
        }
      }
    }
  }
}
