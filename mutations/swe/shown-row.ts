import type { Parser, Tree } from 'web-tree-sitter';
import { findAssertions, nonLiteral } from '../../python/assertions.js';
import { unwrapParens } from '../../python/literal.js';
import { kids, type Node } from '../../python/parser.js';
import { withTreeSync } from '../../python/sync.js';
import type { Rng } from '../rng.js';
import { changedItem, inPlace, rowVariant } from './data-row-variant.js';
import { EXPECTED_NAME, rowOf, type DataRow } from './data-rows.js';
import { closedAfter, isBlank, leading, regionFunctions, type Region, type RegionFunction } from './fragment.js';
import { fileMayHold } from './test-id.js';
import type { SweVariant, KindInput } from './types.js';

/** How the loop tells which target is the expectation: its name, an assertion in view, or (the body cut off before any use) the last. */
type Which = 'named-expected' | 'asserted' | 'last-value';

interface TableLoop {
  loop: Node;
  names: string[];
  table: string;
}

/** Whether `node` lies in `fn` itself, not in a function nested in it. */
function ownedBy(node: Node, fn: Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.id === fn.id) return true;
    if (p.type === 'function_definition') return false;
  }
  return false;
}

/** The test's `for a, b, expected in TABLE:` loops: two or more plain targets over a table named by a plain name. */
function tableLoops(fn: Node): TableLoop[] {
  return fn.descendantsOfType('for_statement').flatMap((loop) => {
    if (!loop || !ownedBy(loop, fn)) return [];
    const left = loop.childForFieldName('left');
    const right = loop.childForFieldName('right');
    const targets = left && (left.type === 'pattern_list' || left.type === 'tuple_pattern') ? kids(left) : [];
    if (targets.length < 2 || !targets.every((t) => t.type === 'identifier') || right?.type !== 'identifier') return [];
    return [{ loop, names: targets.map((t) => t.text), table: right.text }];
  });
}

/** Whether a row the region blanked (a statement the hunk cuts) names `name`: read by the parser on its own. */
function blankedRowNames(parser: Parser, region: Region, fromRow: number, name: string): boolean {
  const rows = region.source.split('\n');
  return region.lines.some((l, i) => {
    if (i + region.prefixLines <= fromRow || isBlank(l.text) || !isBlank(rows[i + region.prefixLines] ?? '')) return false;
    return withTreeSync(parser, `${l.text.trim()}\n`, (t) => t.rootNode.descendantsOfType('identifier').some((n) => n?.text === name));
  });
}

/**
 * The target that names the expectation. A name such as `expected` tells it; else the last
 * target, when an assertion in view compares it bare against something computed, or when the
 * hunk cuts the loop's body off before any use of it (the assertion lies below, as the last
 * value of a table row is read by default).
 */
function expectedTarget(parser: Parser, region: Region, fn: RegionFunction, t: TableLoop): { at: number; which: Which } | undefined {
  const named = t.names.findIndex((n) => EXPECTED_NAME.test(n));
  if (named >= 0) return { at: named, which: 'named-expected' };
  const at = t.names.length - 1;
  const last = t.names[at]!;
  const body = t.loop.childForFieldName('body');
  if (!body) return undefined;
  const inBody = (s: { start: number; end: number }) => s.start >= body.startIndex && s.end <= body.endIndex;
  const asserted = findAssertions(fn.node, nonLiteral, { rightIsExpected: true, orderComparisons: true }).some((a) => {
    if (!inBody(a.statement) || !a.expected || !a.subject) return false;
    const [bare, other] = a.expected.span.text === last ? [a.expected.span, a.subject] : [a.subject, a.expected.span];
    return bare.text === last && !t.names.includes(other.text);
  });
  if (asserted) return { at, which: 'asserted' };
  const used = body.descendantsOfType('identifier').some((n) => n?.text === last);
  const cut = !closedAfter(region, t.loop.endPosition.row, t.loop.startPosition.column);
  if (!used && cut && !blankedRowNames(parser, region, t.loop.startPosition.row, last)) return { at, which: 'last-value' };
  return undefined;
}

/** A table row on hunk lines `first`..`last`, all context lines that hold that row alone. */
function shownRow(parser: Parser, region: Region, first: number, last: number, test: string, names: string[]): DataRow | undefined {
  const lines = region.hunk.lines.slice(first, last + 1);
  if (lines.some((l) => l.op !== ' ')) return undefined;
  const text = lines.map((l) => l.text).join('\n');
  const row = withTreeSync(parser, `[\n${text}\n]\n`, (tree) => {
    const list = tree.rootNode.namedChild(0)?.namedChild(0);
    const elements = list?.type === 'list' && !tree.rootNode.hasError ? kids(list).filter((c) => c.type !== 'comment') : [];
    return elements.length === 1 ? rowOf(elements[0]!, 2) : undefined;
  });
  if (!row || row.items.length !== names.length) return undefined;
  const context = { kind: 'body' as const, test, loopNames: names };
  return { file: region.file, hunkIndex: region.hunkIndex, run: { first, last }, text, ...row, context };
}

/** The table's elements as hunk line ranges, when every one is a row of the loop's arity. */
function elementLines(elements: Node[], names: string[], hunkLineOf: (row: number) => number | undefined): [number, number][] | undefined {
  const out: [number, number][] = [];
  for (const el of elements) {
    const row = rowOf(el, 0);
    const first = hunkLineOf(el.startPosition.row);
    const last = hunkLineOf(el.endPosition.row);
    if (!row || row.items.length !== names.length || first === undefined || last === undefined) return undefined;
    out.push([first, last]);
  }
  return out;
}

/**
 * The hunk line ranges of the loop's table rows: the elements of its assignment in view, else,
 * when the test's table opens above the hunk and nothing in view assigns it, the rows the hunk
 * opens with, up to the bracket that closes them at or left of the loop's indentation.
 */
function tableRowLines(parser: Parser, region: Region, tree: Tree, fn: RegionFunction, t: TableLoop): [number, number][] | undefined {
  const byRow = (r: number) => region.lines[r - region.prefixLines]?.hunkLine;
  const assigned = fn.node
    .descendantsOfType('assignment')
    .filter((a): a is Node => !!a && a.startIndex < t.loop.startIndex && ownedBy(a, fn.node) && a.childForFieldName('left')?.text === t.table);
  const assignment = assigned[assigned.length - 1];
  if (assignment) {
    const value = assignment.childForFieldName('right');
    const table = value ? unwrapParens(value) : undefined;
    if (!table || (table.type !== 'list' && table.type !== 'tuple') || assignment.startPosition.row < region.prefixLines) return undefined;
    return elementLines(
      kids(table).filter((c) => c.type !== 'comment'),
      t.names,
      byRow,
    );
  }
  if (!fn.partial || tree.rootNode.hasError) return undefined;
  const lines = region.lines;
  const open = lines.findIndex((l) => !isBlank(l.text));
  if (open < 0) return undefined;
  const indent = leading(lines[open]!.text).length;
  const close = lines.findIndex((l, i) => i > open && !isBlank(l.text) && leading(l.text).length < indent);
  const closing = lines[close];
  if (!closing || ![']', ')'].includes(closing.text.trim())) return undefined;
  if (leading(closing.text).length > t.loop.startPosition.column || close + region.prefixLines >= t.loop.startPosition.row) return undefined;
  // The first rows may end a row cut above the hunk: read from the first line that parses on.
  for (let from = open; from < Math.min(open + 4, close); from++) {
    const text = lines
      .slice(from, close)
      .map((l) => l.text)
      .join('\n');
    const found = withTreeSync(parser, `[\n${text}\n]\n`, (parsed) => {
      const list = parsed.rootNode.namedChild(0)?.namedChild(0);
      if (parsed.rootNode.hasError || list?.type !== 'list') return undefined;
      return elementLines(
        kids(list).filter((c) => c.type !== 'comment'),
        t.names,
        (r) => lines[from + r - 1]?.hunkLine,
      );
    });
    if (found) return found;
  }
  return undefined;
}

/** Whether a value is a bare name (`FloatField`, `models.CharField`), which no literal change applies to. */
function isName(parser: Parser, text: string): boolean {
  return withTreeSync(parser, `(${text})\n`, (tree) => {
    const node = tree.rootNode.namedChild(0)?.namedChild(0);
    const n = node && !tree.rootNode.hasError ? unwrapParens(node) : undefined;
    return n?.type === 'identifier' || n?.type === 'attribute';
  });
}

/**
 * The row's expected value changed: to a value its column holds in another shown row, else a
 * changed literal, else (a bare name) another name the shown rows hold in another column.
 */
function newValue(parser: Parser, rows: DataRow[], row: DataRow, at: number, rng: Rng): { text: string; strategy: string } | undefined {
  const own = row.items[at]!.text;
  const others = [...rows].sort((a, b) => Math.abs(a.run.first - row.run.first) - Math.abs(b.run.first - row.run.first));
  const column = others.map((r) => r.items[at]!.text).find((v) => v !== own);
  if (column !== undefined) return { text: column, strategy: 'column-value' };
  const changed = changedItem(parser, own, rng);
  if (changed) return changed;
  if (!isName(parser, own)) return undefined;
  const named = others.flatMap((r) => r.items.filter((_, i) => i !== at).map((i) => i.text)).find((v) => v !== own && isName(parser, v));
  return named !== undefined ? { text: named, strategy: 'table-value' } : undefined;
}

/**
 * A test that loops `for a, b, expected in TABLE:` over rows the hunk shows as context (the
 * patch changes something else the loop reads, such as its other list). Those rows held before
 * the fix as after it, so one of them with its expected value changed fails for the fixed and the
 * unfixed code alike. One-off: that row changed in place; conflicting: a changed copy added right
 * after it, the original kept.
 */
export function* shownRowMutation(input: KindInput): Generator<SweVariant> {
  const { parser, patch, regions, refs, type, rng, seed } = input;
  for (const ref of refs) {
    for (const { region, tree } of regions) {
      if (!ref.name || !fileMayHold(ref, region.file.newPath)) continue;
      const cls = ref.classes[ref.classes.length - 1];
      const fns = regionFunctions(region, tree).filter((f) => f.name === ref.name && (!cls || !f.classes.length || f.classes.at(-1) === cls));
      for (const fn of fns) {
        for (const t of tableLoops(fn.node)) {
          const target = expectedTarget(parser, region, fn, t);
          const ranges = target ? tableRowLines(parser, region, tree, fn, t) : undefined;
          if (!target || !ranges) continue;
          const rows = ranges.flatMap(([first, last]) => shownRow(parser, region, first, last, fn.name, t.names) ?? []);
          // The row nearest the loop first.
          for (const row of [...rows].reverse()) {
            const value = newValue(
              parser,
              rows.filter((r) => r !== row),
              row,
              target.at,
              rng,
            );
            const after = value && inPlace(row, target.at, value.text);
            const made = after && rowVariant(parser, patch, row, after, type);
            if (!after || !made) continue;
            const strategy = `${type === 'conflicting' ? 'duplicate/' : ''}shown-row/${target.which}/${value.strategy}`;
            const before = row.text.slice(row.row.start, row.row.end);
            const record = { type, strategy, seed, line: made.line, before, after, file: region.file.newPath, testId: ref.raw };
            yield { ok: true, testPatch: made.testPatch, wholeFunction: false, record };
          }
        }
      }
    }
  }
}
