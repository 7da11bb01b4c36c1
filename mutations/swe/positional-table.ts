import type { Parser } from 'web-tree-sitter';
import { calleeName } from '../../python/assertions.js';
import { unwrapParens } from '../../python/literal.js';
import { kids, type Node } from '../../python/parser.js';
import { withTreeSync } from '../../python/sync.js';
import type { Hunk } from './patch.js';

/** `compound_model6-result6`: each value named by its argument and the case's index, as pytest names values it cannot spell. */
export function positionalParam(param: string | undefined): { names: string[]; index: number } | undefined {
  if (param === undefined) return undefined;
  const parts = param.split('-').map((p) => /^([A-Za-z_]\w*?)(\d+)$/.exec(p));
  if (parts.length === 0 || parts.some((p) => !p)) return undefined;
  const indexes = new Set(parts.map((p) => p![2]));
  if (indexes.size !== 1) return undefined;
  return { names: parts.map((p) => p![1]!), index: Number(parts[0]![2]) };
}

/** One case of a table a hunk shows: its values' spans in the table text and the hunk lines it covers. */
export interface TableRow {
  start: number;
  end: number;
  items: { start: number; end: number; text: string }[];
  /** A dict table's key (the case is its value). */
  key?: { start: number; end: number; text: string };
  firstLine: number;
  lastLine: number;
  added: boolean;
}

/** The rows of a table a hunk shows, read as a list (or a dict's values), and whether its start and its end are in sight. */
export interface ShownTable {
  /** Hunk line indexes of the table's rows (first, last inclusive), new side only. */
  lines: number[];
  text: string;
  rows: TableRow[];
  dict: boolean;
  startKnown: boolean;
  endVisible: boolean;
  /** The statement right after the table's closing line, when the hunk shows it. */
  after?: string;
  rowIndent: string;
}

const indentOf = (t: string) => t.length - t.trimStart().length;

/** A line the new side of the hunk has (a context or an added line). */
const onNewSide = (hunk: Hunk, i: number) => hunk.lines[i]?.op === ' ' || hunk.lines[i]?.op === '+';

function rowsIn(parser: Parser, text: string, dict: boolean, width: number): Omit<TableRow, 'firstLine' | 'lastLine' | 'added'>[] | undefined {
  const [open, close] = dict ? ['{', '}'] : ['[', ']'];
  return withTreeSync(parser, `${open}\n${text}\n${close}\n`, (tree) => {
    const table = tree.rootNode.namedChild(0)?.namedChild(0);
    if (tree.rootNode.hasError || table?.type !== (dict ? 'dictionary' : 'list')) return undefined;
    const at = (n: Node) => ({ start: n.startIndex - 2, end: n.endIndex - 2, text: n.text });
    const out: Omit<TableRow, 'firstLine' | 'lastLine' | 'added'>[] = [];
    for (const c of kids(table).filter((k) => k.type !== 'comment')) {
      const key = dict && c.type === 'pair' ? c.childForFieldName('key') : undefined;
      const value = dict ? (c.type === 'pair' ? c.childForFieldName('value') : undefined) : c;
      if (!value) return undefined;
      const v = unwrapParens(value);
      // A pytest.param row counts in the index but is never a target (its id may be its own).
      const param = v.type === 'call' && calleeName(v) === 'param';
      // Every element a case: anything else means the lines are not a table's rows.
      if (!param && v.type !== 'tuple' && v.type !== 'list') return undefined;
      const values = param ? [] : kids(v).filter((k) => k.type !== 'comment');
      const plain = !param;
      out.push({ ...at(c), items: plain && values.length === width ? values.map(at) : [], ...(key ? { key: at(key) } : {}) });
    }
    return out;
  });
}

/** The line range of rows around hunk line `seed`: lines at least as deep as it, cut where a row would begin or end outside. */
function rangeAround(hunk: Hunk, seed: number): { first: number; last: number; opener?: string; closer?: number } {
  const indent = indentOf(hunk.lines[seed]!.text);
  let first = seed;
  let opener: string | undefined;
  for (let i = seed - 1; i >= 0; i--) {
    if (!onNewSide(hunk, i)) continue;
    const t = hunk.lines[i]!.text;
    if (t.trim() && indentOf(t) < indent) {
      opener = t;
      break;
    }
    first = i;
  }
  let last = seed;
  let closer: number | undefined;
  for (let i = seed + 1; i < hunk.lines.length; i++) {
    if (!onNewSide(hunk, i)) continue;
    const t = hunk.lines[i]!.text;
    if (t.trim() && indentOf(t) < indent) {
      closer = i;
      break;
    }
    last = i;
  }
  return { first, last, ...(opener !== undefined ? { opener } : {}), ...(closer !== undefined ? { closer } : {}) };
}

/** The table a hunk shows around its first added row, or undefined when its rows cannot be read. */
export function shownTable(parser: Parser, hunk: Hunk, width: number): ShownTable | undefined {
  // A row's first line: a tuple, a list with items on it, a pytest.param, or a dict entry.
  const seed = hunk.lines.findIndex((l) => l.op === '+' && /^\s*(\(|\[\s*\S|pytest\.param\(|(['"]).*?\2\s*:)/.test(l.text));
  if (seed < 0) return undefined;
  const rowIndent = indentOf(hunk.lines[seed]!.text);
  const range = rangeAround(hunk, seed);
  const startKnown = range.opener !== undefined && /[[({]\s*$/.test(range.opener);
  const endVisible = range.closer !== undefined && /^[\])}]/.test(hunk.lines[range.closer]!.text.trim());
  let lines: number[] = [];
  for (let i = range.first; i <= range.last; i++) if (onNewSide(hunk, i)) lines.push(i);
  // Above an unseen start, the first lines may continue a row begun above the hunk.
  if (!startKnown)
    while (lines.length > 0 && (!hunk.lines[lines[0]!]!.text.trim() || indentOf(hunk.lines[lines[0]!]!.text) > rowIndent)) lines.shift();
  const dict = /^\s*(['"]).*?\1\s*:/.test(hunk.lines[seed]!.text);
  for (let cut = 0; cut <= (endVisible ? 0 : 8) && lines.length > 0; cut++) {
    const text = lines.map((i) => hunk.lines[i]!.text).join('\n');
    const rows = rowsIn(parser, text, dict, width);
    if (rows) {
      const starts = lineStarts(text);
      const lineAt = (offset: number) => lines[starts.filter((s) => s <= offset).length - 1]!;
      const withLines = rows.map((r) => {
        const firstLine = lineAt(r.start);
        const lastLine = lineAt(r.end - 1);
        const added = hunk.lines.slice(firstLine, lastLine + 1).every((l) => l.op !== ' ');
        return { ...r, firstLine, lastLine, added };
      });
      const after =
        range.closer !== undefined
          ? hunk.lines.slice(range.closer + 1).find((l) => (l.op === ' ' || l.op === '+') && l.text.trim())?.text
          : undefined;
      return { lines, text, rows: withLines, dict, startKnown, endVisible, rowIndent: ' '.repeat(rowIndent), ...(after ? { after } : {}) };
    }
    lines = lines.slice(0, -1);
  }
  return undefined;
}

function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') out.push(i + 1);
  return out;
}

/**
 * Where the table's first shown row sits in the whole table: 0 when the hunk shows the table
 * open; else the one offset that puts every case the FAIL_TO_PASS ids name on a row the patch
 * adds (at least two cases, so the offset is not a guess). Undefined when no single offset does.
 */
export function tableOffset(table: ShownTable, indexes: readonly number[]): number | undefined {
  if (table.startKnown) return 0;
  if (new Set(indexes).size < 2) return undefined;
  const added = new Set(table.rows.flatMap((r, i) => (r.added && r.items.length > 0 ? [i] : [])));
  const fits: number[] = [];
  for (let k = 0; k <= Math.max(...indexes); k++) if (indexes.every((i) => added.has(i - k))) fits.push(k);
  return fits.length === 1 ? fits[0] : undefined;
}
