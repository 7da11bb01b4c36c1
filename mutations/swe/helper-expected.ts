import type { Parser, Tree } from 'web-tree-sitter';
import { unwrapParens } from '../../python/literal.js';
import { kids, type Node } from '../../python/parser.js';
import type { MutationType } from '../outcome.js';
import { rngFor, type Rng } from '../rng.js';
import { applyEdits, changeLeaf, mutableLeaves, strategyName, type Edit } from '../values.js';
import { withHunkLines } from './emit.js';
import { functionParses, leading, regionFunctions, type Region, type RegionFunction } from './fragment.js';
import { expectedArguments, helperDefinition, ownHelperName } from './helper-argument.js';
import { parsePatch, type Patch, type PatchLine } from './patch.js';
import { fileMayHold, type TestRef } from './test-id.js';
import type { SweVariant, KindInput } from './types.js';

type Regions = readonly { region: Region; tree: Tree }[];

/** Leaves a one-off may change: numbers and strings. A flipped bool, or a value for None, may be just what the unfixed code gives. */
const CHANGEABLE = new Set(['integer', 'float', 'unary_operator', 'string', 'concatenated_string']);

/** Calls that build an empty collection, given one element as `set([None])`. */
const EMPTY_BUILDERS = new Set(['list', 'tuple', 'set', 'frozenset']);

/** An empty list, tuple, dict or set in the expected value (itself, or an item or dict value of it), given one element. */
function grownEmpty(node: Node): { edit: Edit; strategy: string } | undefined {
  const n = unwrapParens(node);
  const items = kids(n).filter((k) => k.type !== 'comment');
  const open = n.startIndex + 1;
  const at = (text: string) => ({ edit: { start: open, end: open, text }, strategy: 'empty-gains-none' });
  if (n.type === 'list' || n.type === 'tuple' || n.type === 'set' || n.type === 'dictionary') {
    if (items.length === 0)
      return n.type === 'list' ? at('None') : n.type === 'tuple' ? at('None,') : n.type === 'dictionary' ? at('None: None') : undefined;
    for (const item of items) {
      const inner = item.type === 'pair' ? item.childForFieldName('value') : item.type === 'list_splat' ? null : item;
      const grown = inner ? grownEmpty(inner) : undefined;
      if (grown) return grown;
    }
    return undefined;
  }
  const fn = n.type === 'call' ? n.childForFieldName('function') : null;
  const args = n.childForFieldName('arguments');
  if (fn?.type === 'identifier' && EMPTY_BUILDERS.has(fn.text) && args?.type === 'argument_list' && kids(args).length === 0)
    return { edit: { start: args.startIndex + 1, end: args.startIndex + 1, text: '[None]' }, strategy: 'empty-gains-none' };
  return undefined;
}

/** The expected value changed: one number or string in it, else an empty collection in it given one element. */
function changedExpected(node: Node, rng: Rng): { edit: Edit; strategy: string } | undefined {
  const leaves = mutableLeaves(node, true).filter((l) => CHANGEABLE.has(l.node.type));
  for (const leaf of rng.shuffle(leaves)) {
    const change = changeLeaf(leaf, { tolerance: { rel: 0, abs: 0 }, plausible: [], rng });
    if (change && !change.edit.text.includes('\n')) return { edit: change.edit, strategy: strategyName(leaf, change.strategy) };
  }
  return grownEmpty(node);
}

/** A call of the test class's own helper, a statement on lines the patch adds. */
interface HelperCall {
  region: Region;
  tree: Tree;
  fn: RegionFunction;
  statement: Node;
  call: Node;
  name: string;
}

/** Whether the statement fills its lines alone and every one of them is added by the patch. */
function addedAlone(region: Region, s: Node): boolean {
  const rows = region.lines.slice(s.startPosition.row - region.prefixLines, s.endPosition.row - region.prefixLines + 1);
  if (s.startPosition.row < region.prefixLines || rows.length !== s.endPosition.row - s.startPosition.row + 1) return false;
  if (rows.some((l) => l.op !== '+')) return false;
  const tail = rows[rows.length - 1]!.text.slice(s.endPosition.column).trim();
  return s.startPosition.column === leading(rows[0]!.text).length && (tail === '' || tail.startsWith('#'));
}

function* helperCalls(ref: TestRef, regions: Regions): Generator<HelperCall> {
  for (const { region, tree } of regions) {
    if (!ref.name || !fileMayHold(ref, region.file.newPath)) continue;
    for (const fn of regionFunctions(region, tree)) {
      const cls = ref.classes[ref.classes.length - 1];
      const seen = fn.classes[fn.classes.length - 1];
      if (fn.name !== ref.name || (cls && seen && cls !== seen)) continue;
      for (const statement of fn.node.descendantsOfType('expression_statement')) {
        if (!statement || statement.hasError || statement.namedChildCount !== 1) continue;
        let owner = statement.parent;
        while (owner && owner.type !== 'function_definition') owner = owner.parent;
        const call = statement.namedChild(0);
        const name = call?.type === 'call' ? ownHelperName(call) : undefined;
        if (owner?.id === fn.node.id && call && name && addedAlone(region, statement)) yield { region, tree, fn, statement, call, name };
      }
    }
  }
}

/** The hunk with the statement's rows replaced by `edited` (one-off) or followed by it (conflicting), and whether that still parses. */
function variantAt(parser: Parser, patch: Patch, site: HelperCall, edited: string[], type: MutationType): string | undefined {
  const { region, fn, statement } = site;
  const first = statement.startPosition.row - region.prefixLines;
  const last = statement.endPosition.row - region.prefixLines;
  const texts = region.lines.map((l) => l.text);
  const after =
    type === 'oneoff'
      ? [...texts.slice(0, first), ...edited, ...texts.slice(last + 1)]
      : [...texts.slice(0, last + 1), ...edited, ...texts.slice(last + 1)];
  // The test as a whole when the hunk shows it whole, else the statements changed, must parse.
  const grown = after.length - texts.length;
  const checked = fn.whole
    ? after.slice(fn.node.startPosition.row - region.prefixLines, fn.node.endPosition.row - region.prefixLines + 1 + grown)
    : type === 'oneoff'
      ? edited
      : [...texts.slice(first, last + 1), ...edited];
  if (!functionParses(parser, checked)) return undefined;
  const lines: PatchLine[] = region.hunk.lines.map((l) => ({ ...l }));
  const hunkLine = (row: number) => region.lines[row]!.hunkLine;
  if (type === 'oneoff') for (const [i, text] of edited.entries()) lines[hunkLine(first + i)] = { op: '+', text };
  else lines.splice(hunkLine(last) + 1, 0, ...edited.map((text) => ({ op: '+' as const, text })));
  const testPatch = withHunkLines(patch, region, lines);
  try {
    parsePatch(testPatch);
  } catch {
    return undefined;
  }
  return testPatch;
}

/**
 * A test the patch adds whose check is a call of its class's own assertion helper
 * (`self.assertOptimizesTo(operations, [])`), with an argument that holds the expected value (see
 * `expectedArguments`). One-off: a number or string in that argument changes, or an empty
 * collection gains one element; no other argument changes, as it is the input, and no bool flips,
 * as the unfixed code may give the flipped value. Conflicting: the same call again right after it,
 * with the changed value, so no code passes both.
 */
export function* helperExpectedMutation(input: KindInput): Generator<SweVariant> {
  const { parser, patch, regions, refs, type, seed } = input;
  for (const ref of refs) {
    // A stream of its own: the engine's shared one stays as the kinds after this one expect it.
    const rng = rngFor(seed, ref.raw, type, 'helper-expected');
    for (const site of helperCalls(ref, regions)) {
      const { region, statement, call, name } = site;
      const def = helperDefinition(name, site.fn.node, region.file, regions);
      for (const arg of expectedArguments(call, name, def)) {
        const change = changedExpected(arg.node, rng);
        if (!change) continue;
        const first = statement.startPosition.row;
        const start = region.rowStarts[first]!;
        const original = region.lines.slice(first - region.prefixLines, statement.endPosition.row - region.prefixLines + 1).map((l) => l.text);
        const block = original.join('\n');
        if (region.source.slice(start, start + block.length) !== block) continue;
        const edit = { ...change.edit, start: change.edit.start - start, end: change.edit.end - start };
        const edited = applyEdits(block, [edit]).split('\n');
        if (edited.length !== original.length) continue;
        const testPatch = variantAt(parser, patch, site, edited, type);
        if (!testPatch) continue;
        const at = block.slice(0, edit.start).split('\n').length - 1;
        const lastLine = region.lines[statement.endPosition.row - region.prefixLines]!.newLine;
        const line = type === 'oneoff' ? region.lines[first - region.prefixLines + at]!.newLine : lastLine + 1 + at;
        const strategy = `${type === 'conflicting' ? 'duplicate/' : ''}helper-expected/${arg.how}/${change.strategy}`;
        const record = { type, strategy, seed, line, before: original[at]!.trim(), after: edited[at]!.trim() };
        yield { ok: true, testPatch, wholeFunction: site.fn.whole, record: { ...record, file: region.file.newPath, testId: ref.raw } };
      }
    }
  }
}
