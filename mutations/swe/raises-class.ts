import type { MutationType } from '../outcome.js';
import type { Node } from '../../python/parser.js';
import { withHunkLines } from './emit.js';
import { regionFunctions, type Region } from './fragment.js';
import { parsePatch, type PatchLine } from './patch.js';
import { fileMayHold } from './test-id.js';
import type { SweVariant, KindInput } from './types.js';

/**
 * The class the changed check expects. Only an async iterator raises it, and it has no subclasses
 * and no base but Exception, so neither the fixed nor the unfixed code of a synchronous test
 * raises anything it catches.
 */
const UNRELATED = 'StopAsyncIteration';

/** The `self.assertRaises(E)` / `pytest.raises(E)` call of a `with` item, and its class argument. */
function raisesCall(item: Node): { call: Node; cls: Node } | undefined {
  const call = item.namedChildren[0];
  if (call?.type !== 'call') return undefined;
  const fn = call.childForFieldName('function');
  const obj = fn?.childForFieldName('object')?.text;
  const attr = fn?.childForFieldName('attribute')?.text;
  if (fn?.type !== 'attribute' || !((obj === 'self' && attr === 'assertRaises') || (obj === 'pytest' && attr === 'raises'))) return undefined;
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  const cls = args[0];
  if (args.length !== 1 || !cls || (cls.type !== 'identifier' && cls.type !== 'attribute')) return undefined;
  return { call, cls };
}

/** The line the patch adds that holds the `with` header, changed; undefined when the header is not one added line. */
function changedLine(region: Region, w: Node, type: MutationType): { hunkLine: number; text: string; before: string } | undefined {
  const row = w.startPosition.row;
  const line = region.lines[row - region.prefixLines];
  const items = w.descendantsOfType('with_item').filter((i): i is Node => !!i && i.parent?.parent?.id === w.id);
  const found = items.map(raisesCall).find((r) => !!r);
  if (line?.op !== '+' || !found || found.call.startPosition.row !== row || found.call.endPosition.row !== row) return undefined;
  const { call, cls } = found;
  const at = (n: Node, col: number) => (line.text.slice(col, col + n.text.length) === n.text ? col : -1);
  const c = at(cls, cls.startPosition.column);
  const k = at(call, call.startPosition.column);
  if (c < 0 || k < 0) return undefined;
  const text =
    type === 'oneoff'
      ? line.text.slice(0, c) + UNRELATED + line.text.slice(c + cls.text.length)
      : `${line.text.slice(0, k) + call.text.replace(cls.text, UNRELATED)}, ${line.text.slice(k)}`;
  return { hunkLine: line.hunkLine, text, before: line.text };
}

/**
 * A test whose block the patch adds under `with self.assertRaises(E):` / `with pytest.raises(E):`.
 * One-off: E becomes a class no code here raises, so the fixed code's E escapes. Conflicting:
 * the same check on that class is added as an outer item of the same `with`; the inner one
 * swallows E, and the outer then sees nothing raised, so one of the two always fails.
 */
export function* raisesClassMutation(input: KindInput): Generator<SweVariant> {
  const { patch, regions, refs, type, seed } = input;
  for (const ref of refs) {
    for (const { region, tree } of regions) {
      if (!ref.name || !fileMayHold(ref, region.file.newPath)) continue;
      for (const fn of regionFunctions(region, tree).filter((f) => f.name === ref.name)) {
        for (const w of fn.node.descendantsOfType('with_statement')) {
          if (!w || w.hasError || w.startPosition.row < region.prefixLines) continue;
          const change = changedLine(region, w, type);
          if (!change) continue;
          const lines: PatchLine[] = region.hunk.lines.map((l, i) => (i === change.hunkLine ? { op: '+', text: change.text } : { ...l }));
          const testPatch = withHunkLines(patch, region, lines);
          try {
            parsePatch(testPatch);
          } catch {
            continue;
          }
          const newLine = region.lines[w.startPosition.row - region.prefixLines]!.newLine;
          const strategy = type === 'oneoff' ? 'raises-class/unrelated' : 'duplicate/raises-class/outer-item';
          const record = { type, strategy, seed, line: newLine, before: change.before.trim(), after: change.text.trim() };
          yield { ok: true, testPatch, wholeFunction: false, record: { ...record, file: region.file.newPath, testId: ref.raw } };
        }
      }
    }
  }
}
