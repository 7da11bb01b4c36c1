import type { Parser } from 'web-tree-sitter';
import { kids } from '../../python/parser.js';
import { withTreeSync } from '../../python/sync.js';
import type { MutationType } from '../outcome.js';
import { withHunkLines } from './emit.js';
import { parsePatch, type FilePatch, type Patch, type PatchLine } from './patch.js';
import { fileMayHold, type TestRef } from './test-id.js';
import type { SweVariant, KindInput } from './types.js';

/** A one-line list assignment a hunk shows: `invalid_usernames = ["a", 'b\n']`. */
interface InputList {
  hunkLine: number;
  fn: string | undefined;
  name: string;
  text: string;
  op: ' ' | '+';
  newLine: number;
  items: { start: number; end: number; text: string }[];
  /** Offset of the closing `]`. */
  close: number;
}

const DEF = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/;
const ASSIGN = /^\s*([A-Za-z_]\w*)\s*=\s*\[/;

/** `valid_x` pairs with `invalid_x`, `x_valid` with `x_invalid`: what one accepts, the other rejects. */
function counterpart(name: string): string | undefined {
  if (name.startsWith('invalid_')) return name.slice(2);
  if (name.startsWith('valid_')) return `in${name}`;
  if (name.endsWith('_invalid')) return `${name.slice(0, -8)}_valid`;
  if (name.endsWith('_valid')) return `${name.slice(0, -6)}_invalid`;
  return undefined;
}

function listOf(parser: Parser, text: string): Pick<InputList, 'items' | 'close'> | undefined {
  return withTreeSync(parser, `${text.trim()}\n`, (tree) => {
    const shift = text.length - text.trimStart().length;
    const stmt = tree.rootNode.namedChild(0);
    const assign = stmt?.namedChild(0);
    const list = assign?.type === 'assignment' ? assign.childForFieldName('right') : undefined;
    if (tree.rootNode.hasError || tree.rootNode.namedChildCount !== 1 || list?.type !== 'list') return undefined;
    const values = kids(list).filter((c) => c.type !== 'comment');
    // Plain inputs only: a list of literals, none spread.
    if (!values.every((v) => ['string', 'integer', 'float', 'concatenated_string'].includes(v.type))) return undefined;
    return {
      items: values.map((v) => ({ start: v.startIndex + shift, end: v.endIndex + shift, text: v.text })),
      close: list.endIndex - 1 + shift,
    };
  });
}

function listsOf(parser: Parser, file: FilePatch, hunkIndex: number): InputList[] {
  const hunk = file.hunks[hunkIndex]!;
  let fn = DEF.exec(hunk.context)?.[1];
  let newLine = hunk.newStart;
  const out: InputList[] = [];
  hunk.lines.forEach((l, hunkLine) => {
    if (l.op !== ' ' && l.op !== '+') return;
    fn = DEF.exec(l.text)?.[1] ?? fn;
    const name = ASSIGN.exec(l.text)?.[1];
    const list = name ? listOf(parser, l.text) : undefined;
    if (name && list) out.push({ hunkLine, fn, name, text: l.text, op: l.op, newLine, ...list });
    newLine++;
  });
  return out;
}

/** The line without one item (and the comma that joined it to its neighbour). */
function without(list: InputList, at: number): string {
  const item = list.items[at]!;
  const next = list.items[at + 1];
  const prev = list.items[at - 1];
  if (next) return list.text.slice(0, item.start) + list.text.slice(next.start);
  if (prev) return list.text.slice(0, prev.end) + list.text.slice(item.end);
  return list.text.slice(0, item.start) + list.text.slice(item.end);
}

/** The line with one more item at its end. */
function withItem(list: InputList, item: string): string {
  const sep = list.items.length > 0 ? ', ' : '';
  const last = list.items[list.items.length - 1];
  const at = last ? last.end : list.close;
  return list.text.slice(0, at) + sep + item + list.text.slice(at);
}

/**
 * An input the patch adds to a list of valid (or invalid) inputs, in a test that also lists the
 * opposite kind. The conflicting variant adds it to the other list as well: no code treats one
 * input both ways. The one-off moves an input both lists held before the patch to the other list:
 * the added input is the very one the unfixed code gets wrong, so moving it would let doing nothing
 * pass, while an older input is treated alike by the fixed and the unfixed code and fails both.
 */
export function* inputListMutation(input: KindInput): Generator<SweVariant> {
  const { parser, patch, testFiles, refs, type, seed } = input;
  for (const ref of refs) {
    if (ref.description !== undefined || ref.param !== undefined || !ref.name) continue;
    for (const file of testFiles) {
      if (!fileMayHold(ref, file.newPath)) continue;
      for (let h = 0; h < file.hunks.length; h++) {
        const made = inHunk(parser, patch, file, h, ref, type, seed);
        if (made) yield made;
      }
    }
  }
}

/** Edits of the hunk's lines, by hunk line: the item at `at` of `from` added to `to`, and removed from `from` when moved. */
function moveEdits(from: InputList, at: number, to: InputList, move: boolean): Map<number, { list: InputList; text: string }> {
  const edits = new Map([[to.hunkLine, { list: to, text: withItem(to, from.items[at]!.text) }]]);
  if (move) edits.set(from.hunkLine, { list: from, text: without(from, at) });
  return edits;
}

function inHunk(parser: Parser, patch: Patch, file: FilePatch, h: number, ref: TestRef, type: MutationType, seed: number): SweVariant | undefined {
  const hunk = file.hunks[h]!;
  const removed = hunk.lines.filter((l) => l.op === '-').map((l) => l.text);
  const isNew = (l: InputList, text: string) => l.op === '+' && !removed.some((r) => r.includes(text));
  const lists = listsOf(parser, file, h).filter((l) => l.fn === ref.name);
  for (const from of lists) {
    const to = lists.find((l) => l.name === counterpart(from.name));
    if (from.op !== '+' || !to) continue;
    const notIn = (other: InputList) => (i: InputList['items'][number]) => !other.items.some((t) => t.text === i.text);
    const at = from.items.findIndex((i) => isNew(from, i.text) && notIn(to)(i));
    if (at < 0) continue;
    let edits = moveEdits(from, at, to, false);
    if (type === 'oneoff') {
      const older = [
        { src: from, dst: to },
        { src: to, dst: from },
      ].flatMap(({ src, dst }) => {
        const i = src.items.findIndex((x) => !isNew(src, x.text) && notIn(dst)(x));
        return i < 0 ? [] : [moveEdits(src, i, dst, true)];
      })[0];
      if (!older) continue;
      edits = older;
    }
    const lines: PatchLine[] = [];
    hunk.lines.forEach((l, i) => {
      const e = edits.get(i);
      if (!e) lines.push({ ...l });
      else if (l.op === '+') lines.push({ op: '+', text: e.text });
      else lines.push({ op: '-', text: l.text }, { op: '+', text: e.text });
    });
    const testPatch = withHunkLines(patch, { file, hunkIndex: h, hunk }, lines);
    try {
      parsePatch(testPatch);
    } catch {
      continue;
    }
    const order = [...edits.keys()].sort((a, b) => a - b).map((k) => edits.get(k)!);
    const strategy = type === 'oneoff' ? 'input-list/moved-older' : 'duplicate/input-list/both-kinds';
    const record = {
      type,
      strategy,
      seed,
      line: order[0]!.list.newLine,
      before: order.map((e) => e.list.text.trim()).join('\n'),
      after: order.map((e) => e.text.trim()).join('\n'),
      file: file.newPath,
      testId: ref.raw,
    };
    return { ok: true, testPatch, wholeFunction: false, record };
  }
  return undefined;
}
