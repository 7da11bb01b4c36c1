import type { Parser } from 'web-tree-sitter';
import { calleeName } from '../../python/assertions.js';
import { unwrapParens } from '../../python/literal.js';
import { kids, type Node } from '../../python/parser.js';
import { withTreeSync } from '../../python/sync.js';
import { INDEXED, idOf, plainString } from './parametrize.js';
import type { FilePatch, Hunk } from './patch.js';
import { classNameId } from './class-name.js';

/**
 * Data rows a patch adds: tuples (or `pytest.param(...)` calls) of two or more values that sit in
 * a run of added lines, found without the rest of their table, which often starts above the hunk.
 */
export interface DataRow {
  file: FilePatch;
  hunkIndex: number;
  /** Hunk line indexes of the run of added lines that holds the row (first, last inclusive); a context row shown-row reads: its own lines. */
  run: { first: number; last: number };
  /** The run's lines joined by newlines; the offsets below are in this text. */
  text: string;
  row: { start: number; end: number };
  /** Each value of the row: its span and, when pytest can tell it from the source, its id part. */
  items: { start: number; end: number; text: string; id: string | undefined; indexed: boolean }[];
  /** A `pytest.param(..., id=...)` row's own id. */
  explicitId?: string;
  /** Where the row is read: a parametrize table above a test, or a table in a test's body looped over. */
  context: RowContext;
}

export type RowContext =
  | { kind: 'parametrize'; test?: string; params?: string[] }
  | { kind: 'body'; test: string; loopNames?: string[] }
  | { kind: 'unknown' };

/** Names that say a value is what the test expects. */
export const EXPECTED_NAME = /^(expected|expect|exp|result|results|output|want|wanted|answer|solution)(_|$)|_(expected|result|output)$/i;

/** The index of the value the test compares against, and whether a name told it (else the last, by default). */
export function expectedIndex(row: DataRow): { at: number; named: boolean } {
  const names = row.context.kind === 'parametrize' ? row.context.params : row.context.kind === 'body' ? row.context.loopNames : undefined;
  if (names && names.length === row.items.length) {
    const at = names.findIndex((n) => EXPECTED_NAME.test(n));
    if (at >= 0) return { at, named: true };
  }
  return { at: row.items.length - 1, named: false };
}

/** The row's full pytest id, when every value's id can be told (or the row names its own). */
export function rowId(row: DataRow): string | undefined {
  if (row.explicitId !== undefined) return row.explicitId;
  const parts = row.items.map((i) => i.id);
  return parts.every((p): p is string => p !== undefined) ? parts.join('-') : undefined;
}

function headerOf(parser: Parser, line: string): { kind: 'def'; name: string; params: string[] } | { kind: 'for'; names: string[] } | undefined {
  const text = line.trim();
  if (!text.endsWith(':')) return undefined;
  return withTreeSync(parser, `${text}\n    pass\n`, (tree) => {
    const top = tree.rootNode.namedChild(0);
    if (!top || tree.rootNode.hasError) return undefined;
    if (top.type === 'function_definition') {
      const params = top.childForFieldName('parameters');
      const names = params
        ? kids(params).map((p) => (p.type === 'identifier' ? p.text : (p.childForFieldName('name')?.text ?? p.namedChild(0)?.text ?? '')))
        : [];
      return { kind: 'def' as const, name: top.childForFieldName('name')?.text ?? '', params: names.filter((n) => n !== 'self' && n !== 'cls') };
    }
    if (top.type === 'for_statement') {
      const left = top.childForFieldName('left');
      const targets = left && (left.type === 'pattern_list' || left.type === 'tuple_pattern') ? kids(left) : [];
      return targets.length > 1 && targets.every((t) => t.type === 'identifier')
        ? { kind: 'for' as const, names: targets.map((t) => t.text) }
        : undefined;
    }
    return undefined;
  });
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/** The new-side lines of a hunk with their indexes. */
function newSide(hunk: Hunk): { at: number; text: string }[] {
  return hunk.lines.flatMap((l, at) => (l.op === ' ' || l.op === '+' ? [{ at, text: l.text }] : []));
}

/**
 * What reads the rows of a run: a test defined right after their table closes (a parametrize
 * table), else the function the hunk sits in (its header, or a `def` shown above the run), with
 * the names of a `for` loop over the table when the hunk shows one.
 */
function contextOf(parser: Parser, hunk: Hunk, first: number, last: number): RowContext {
  const lines = newSide(hunk);
  const rowIndent = indentOf(hunk.lines[first]!.text);
  let loopNames: string[] | undefined;
  for (const { at, text } of lines) {
    if (at <= last || !text.trim()) continue;
    if (indentOf(text) >= rowIndent || /^[\])}@]/.test(text.trim())) continue;
    // The first statement below the table: a test it parametrizes, or a loop over it.
    // A signature may run over several lines: read up to the line that ends it.
    const rest = lines.filter((l) => l.at >= at).map((l) => l.text);
    const end = rest.findIndex((l) => l.trimEnd().endsWith(':'));
    const head = end >= 0 && end < 12 ? headerOf(parser, rest.slice(0, end + 1).join('\n')) : undefined;
    if (head?.kind === 'def') return { kind: 'parametrize', test: head.name, params: head.params };
    // A signature the hunk cuts off still names the test; its parameters are not all known.
    const cut = end < 0 ? headerOf(parser, `${rest.join('\n')}):`) : undefined;
    if (cut?.kind === 'def') return { kind: 'parametrize', test: cut.name };
    if (head?.kind === 'for') loopNames = head.names;
    break;
  }
  let enclosing = headerOf(parser, hunk.context.trim());
  for (const { at, text } of lines) {
    if (at >= first) break;
    const head = text.trim() ? headerOf(parser, text) : undefined;
    if (head?.kind === 'def' && indentOf(text) < rowIndent) enclosing = head;
  }
  if (enclosing?.kind === 'def') return { kind: 'body', test: enclosing.name, ...(loopNames ? { loopNames } : {}) };
  return { kind: 'unknown' };
}

export function rowOf(node: Node, offset: number): Pick<DataRow, 'row' | 'items' | 'explicitId'> | undefined {
  const n = unwrapParens(node);
  let values: Node[];
  let explicitId: string | undefined;
  if (n.type === 'tuple') values = kids(n).filter((c) => c.type !== 'comment');
  else if (n.type === 'call' && calleeName(n) === 'param') {
    const args = n.childForFieldName('arguments');
    const parts = args ? kids(args).filter((c) => c.type !== 'comment') : [];
    values = parts.filter((c) => c.type !== 'keyword_argument');
    const keywords = parts.filter((c) => c.type === 'keyword_argument');
    const id = keywords.find((k) => k.childForFieldName('name')?.text === 'id')?.childForFieldName('value');
    explicitId = id ? plainString(id) : undefined;
    if ((id && explicitId === undefined) || keywords.some((k) => !['id', 'marks'].includes(k.childForFieldName('name')?.text ?? '')))
      return undefined;
  } else return undefined;
  if (values.length < 2 || values.some((v) => v.type === 'list_splat' || v.type === 'dictionary_splat')) return undefined;
  return {
    row: { start: node.startIndex - offset, end: node.endIndex - offset },
    items: values.map((v) => ({
      start: v.startIndex - offset,
      end: v.endIndex - offset,
      text: v.text,
      // The index is unknown (the table may start above the hunk): an indexed value has no id here.
      id: INDEXED.has(unwrapParens(v).type) ? undefined : (idOf(v, '', 0) ?? (v.type === 'identifier' ? classNameId(v.text) : undefined)),
      indexed: INDEXED.has(unwrapParens(v).type),
    })),
    ...(explicitId !== undefined ? { explicitId } : {}),
  };
}

/** Every data row the file's hunks add, with what reads it. */
export function addedRows(parser: Parser, file: FilePatch): DataRow[] {
  const out: DataRow[] = [];
  file.hunks.forEach((hunk, hunkIndex) => {
    for (let first = 0; first < hunk.lines.length; first++) {
      if (hunk.lines[first]!.op !== '+') continue;
      let last = first;
      while (hunk.lines[last + 1]?.op === '+') last++;
      const text = hunk.lines
        .slice(first, last + 1)
        .map((l) => l.text)
        .join('\n');
      const wrapped = `[\n${text}\n]\n`;
      const rows = withTreeSync(parser, wrapped, (tree) => {
        const list = tree.rootNode.namedChild(0)?.namedChild(0);
        if (tree.rootNode.hasError || list?.type !== 'list') return [];
        return kids(list)
          .filter((c) => c.type !== 'comment')
          .flatMap((c) => {
            const r = rowOf(c, 2);
            return r ? [r] : [];
          });
      });
      if (rows.length > 0) {
        const context = contextOf(parser, hunk, first, last);
        for (const r of rows) out.push({ file, hunkIndex, run: { first, last }, text, ...r, context });
      }
      first = last;
    }
  });
  return out;
}
