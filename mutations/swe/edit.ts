import type { Parser } from 'web-tree-sitter';
import { boundNames, usedNames } from '../../python/check.js';
import { kids, type Node } from '../../python/parser.js';
import type { MutationType } from '../outcome.js';
import type { AssertionPlan } from '../plan.js';
import type { Rng } from '../rng.js';
import { applyEdits } from '../values.js';
import { withHunkLines } from './emit.js';
import { closedAfter, functionParses, type Region } from './fragment.js';
import { parsePatch, type Patch, type PatchLine } from './patch.js';
import type { Candidate, SweMutation } from './types.js';
import type { TestRef } from './test-id.js';
import { messageItemPlan } from './with-item.js';

export type { Candidate } from './types.js';

function rowOf(region: Region, offset: number): number {
  let lo = 0;
  let hi = region.rowStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (region.rowStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const SIMPLE = new Set(['assert_statement', 'expression_statement', 'return_statement', 'pass_statement', 'delete_statement', 'raise_statement']);

/** A complete simple statement ends where it ends; a compound one only when the hunk shows what follows it. */
export function endsSurely(region: Region, s: Node): boolean {
  return (SIMPLE.has(s.type) && !s.hasError) || closedAfter(region, s.endPosition.row, s.startPosition.column);
}

/** Later statements of the same block after which a duplicate may go (their end is visible). */
export function slotsAfter(c: Candidate): Node[] {
  const block = c.node.parent;
  if (!block) return [];
  const siblings = kids(block).filter((s) => s.type !== 'comment');
  const i = siblings.findIndex((s) => s.startIndex === c.node.startIndex);
  const reads = new Set(usedNames(c.node));
  const out: Node[] = [];
  for (let j = i + 1; j < siblings.length; j++) {
    const s = siblings[j]!;
    if (s.hasError) break;
    if (boundNames(s).some((n) => reads.has(n))) break;
    const next = siblings[j + 1];
    if (next && next.startPosition.row === s.endPosition.row) continue;
    if (endsSurely(c.region, s)) out.push(s);
  }
  return out;
}

/** The plan's change made to a copy of the context manager's call, added after it as another item of the same `with`. */
function withItemPlan(c: Candidate, plan: AssertionPlan): AssertionPlan {
  const call = c.assertion.subject;
  const changed = applyEdits(
    call.text,
    plan.edits.map((e) => ({ ...e, start: e.start - call.start, end: e.end - call.start })),
  );
  return { edits: [{ start: call.end, end: call.end, text: `, ${changed}` }], strategy: `added-item/${plan.strategy}` };
}

/** The plan's edits made on the one row they touch, in the hunk and in the post-image; the row's new line number. */
function editRow(region: Candidate['region'], plan: AssertionPlan, lines: PatchLine[], newRows: string[]): number | string {
  const row = rowOf(region, plan.edits[0]!.start);
  if (plan.edits.some((e) => rowOf(region, e.start) !== row)) return 'the change would span lines';
  const rl = region.lines[row - region.prefixLines]!;
  const rowStart = region.rowStarts[row]!;
  const newText = applyEdits(
    rl.text,
    plan.edits.map((e) => ({ ...e, start: e.start - rowStart, end: e.end - rowStart })),
  );
  if (rl.op === '+') lines[rl.hunkLine] = { op: '+', text: newText };
  else lines.splice(rl.hunkLine, 1, { op: '-', text: rl.text }, { op: '+', text: newText });
  newRows[row - region.prefixLines] = newText;
  return rl.newLine;
}

/** The duplicate added at a visible place after the assertion; its line number and how many rows it takes. */
function addDuplicate(c: Candidate, rng: Rng, duplicate: string, lines: PatchLine[], newRows: string[]): { line: number; rows: number } | string {
  const { region } = c;
  const slots = slotsAfter(c);
  const target = slots.length > 0 ? rng.pick(slots) : endsSurely(region, c.node) ? c.node : undefined;
  if (!target) return 'no visible place after the assertion to add its duplicate';
  const firstRow = region.lines[c.node.startPosition.row - region.prefixLines]!.text;
  const indent = firstRow.slice(0, c.node.startPosition.column);
  const dup = (indent + duplicate).split('\n');
  const afterRow = region.lines[target.endPosition.row - region.prefixLines]!;
  lines.splice(afterRow.hunkLine + 1, 0, ...dup.map((text) => ({ op: '+' as const, text })));
  newRows.splice(target.endPosition.row - region.prefixLines + 1, 0, ...dup);
  if (target.endPosition.row > c.fn.node.endPosition.row) return 'the duplicate would land outside the test function';
  return { line: afterRow.newLine + 1, rows: dup.length };
}

export function applyPlan(
  parser: Parser,
  patch: Patch,
  c: Candidate,
  planned: AssertionPlan,
  type: MutationType,
  rng: Rng,
  seed: number,
  ref: TestRef,
  asItem?: { plan: AssertionPlan; call: Node },
): SweMutation | string {
  const { region } = c;
  const hunk = region.hunk;
  const src = region.source;
  // `with self.assertNumQueries(1):` gets a second item, `, self.assertNumQueries(2)`: both count the same block.
  const inline = !!asItem || (type === 'conflicting' && !c.via && c.node.type === 'with_statement' && c.assertion.method === 'assertNumQueries');
  const plan = asItem ? asItem.plan : inline ? withItemPlan(c, planned) : planned;
  for (const e of plan.edits) if (src.slice(e.start, e.end).includes('\n') || e.text.includes('\n')) return 'the change would span lines';
  const stmt = c.assertion.statement;
  const rel = (base: number) => plan.edits.map((e) => ({ ...e, start: e.start - base, end: e.end - base }));
  let before = asItem ? asItem.call.text : inline ? c.assertion.subject.text : stmt.text;
  let after = inline ? before + plan.edits[0]!.text : applyEdits(before, rel(stmt.start));
  let duplicate = after;
  if (c.via && !asItem) {
    // The variable's assignment changes (one-off); the duplicate spells the changed value out.
    const v = c.via;
    const exp = v.name;
    duplicate = `${stmt.text.slice(0, exp.start - stmt.start)}(${applyEdits(v.value.text, rel(v.value.startIndex))})${stmt.text.slice(exp.end - stmt.start)}`;
    if (type === 'oneoff') {
      before = v.statement.text;
      after = applyEdits(before, rel(v.statement.startIndex));
    } else after = duplicate;
  }
  const lines: PatchLine[] = hunk.lines.map((l) => ({ ...l }));
  // Post-image rows of the function after the change, for the re-parse check.
  const newRows = region.lines.map((l) => l.text);
  const fnStart = c.fn.node.startPosition.row - region.prefixLines;
  let fnEnd = c.fn.node.endPosition.row - region.prefixLines;
  let line: number;
  if (type === 'oneoff' || inline) {
    const edited = editRow(region, plan, lines, newRows);
    if (typeof edited === 'string') return edited;
    line = edited;
  } else {
    const added = addDuplicate(c, rng, duplicate, lines, newRows);
    // A `with` block whose end is out of sight: the changed message goes in as another item of it.
    const item = typeof added === 'string' ? messageItemPlan(c, planned) : undefined;
    if (item) return applyPlan(parser, patch, c, planned, type, rng, seed, ref, item);
    if (typeof added === 'string') return added;
    line = added.line;
    fnEnd += added.rows;
  }
  const text = withHunkLines(patch, region, lines);
  if (c.fn.whole && !functionParses(parser, newRows.slice(fnStart, fnEnd + 1))) return 'the changed test function would not parse';
  try {
    parsePatch(text);
  } catch (err) {
    return `the changed patch would be malformed (${(err as Error).message})`;
  }
  return {
    ok: true,
    testPatch: text,
    wholeFunction: c.fn.whole,
    record: {
      type,
      strategy: inline ? plan.strategy : type === 'conflicting' ? `duplicate/${plan.strategy}` : plan.strategy,
      seed,
      line,
      before,
      after,
      file: region.file.newPath,
      testId: ref.raw,
    },
  };
}
