import type { Parser } from 'web-tree-sitter';
import { withTreeSync } from '../../python/sync.js';
import type { MutationType } from '../outcome.js';
import type { Rng } from '../rng.js';
import { applyEdits, changeLeaf, mutableLeaves, strategyName } from '../values.js';
import { addedRows, expectedIndex, rowId, type DataRow } from './data-rows.js';
import { withHunkLines } from './emit.js';
import type { SweVariant, KindInput } from './types.js';
import { parsePatch, type Patch, type PatchLine } from './patch.js';
import { namedByClass } from './class-name.js';
import { raisedClassChange } from './raised-row.js';
import { fileMayHold, type TestRef } from './test-id.js';

/** A row the patch adds, read by one FAIL_TO_PASS test: a parametrize case of it, or a row of a table its body loops over. */
interface Target {
  ref: TestRef;
  row: DataRow;
  /** For a parametrize case: the row's id, and the rest of the test's id after it (other parametrize decorators). */
  param?: { id: string; visible: string; rest: string };
}

/** The test name and parametrize id of a ref; an id cut at its first space (as some logs print it) has no `]`. */
function split(ref: TestRef): { name?: string; param?: string; truncated: boolean } {
  if (ref.param !== undefined || !ref.name?.includes('[')) return { name: ref.name, param: ref.param, truncated: false };
  const at = ref.name.indexOf('[');
  return { name: ref.name.slice(0, at), param: ref.name.slice(at + 1), truncated: true };
}

function targetOf(ref: TestRef, row: DataRow): Target | undefined {
  if (ref.description !== undefined || !fileMayHold(ref, row.file.newPath)) return undefined;
  const { name, param, truncated } = split(ref);
  const ctx = row.context;
  if (param === undefined) return ctx.kind === 'body' && ctx.test === name ? { ref, row } : undefined;
  if (ctx.kind === 'parametrize' && ctx.test !== name) return undefined;
  const id = rowId(row);
  if (id === undefined) return undefined;
  if (truncated)
    return id.startsWith(param) && /\s/.test(id.charAt(param.length)) ? { ref, row, param: { id, visible: param, rest: '' } } : undefined;
  if (param === id) return { ref, row, param: { id, visible: id, rest: '' } };
  // Stacked decorators: the one nearest the test comes first in its id.
  if (ctx.kind === 'parametrize' && param.startsWith(`${id}-`)) return { ref, row, param: { id, visible: id, rest: param.slice(id.length) } };
  return undefined;
}

/** The expected value changed: its new text, and the strategy. */
export function changedItem(parser: Parser, text: string, rng: Rng): { text: string; strategy: string } | undefined {
  return withTreeSync(parser, `(${text})\n`, (tree) => {
    const node = tree.rootNode.namedChild(0)?.namedChild(0);
    if (!node || tree.rootNode.hasError) return undefined;
    // Positional values first; keyword values only when there are none (`timedelta(seconds=-61)`).
    const positional = mutableLeaves(node, true);
    for (const leaf of rng.shuffle(positional.length > 0 ? positional : mutableLeaves(node, true, true))) {
      const change = changeLeaf(leaf, { tolerance: { rel: 0, abs: 0 }, plausible: [], rng });
      if (!change || change.edit.text.includes('\n')) continue;
      const edit = { ...change.edit, start: change.edit.start - 1, end: change.edit.end - 1 };
      const changed = applyEdits(text, [edit]);
      if (changed !== text) return { text: changed, strategy: strategyName(leaf, change.strategy) };
    }
    return undefined;
  });
}

/**
 * A Python literal for an id as pytest prints it: pytest escapes an id's backslashes and control
 * characters, and its printed form spells them as Python does, so the literal keeps that spelling.
 */
const pyString = (id: string) => `"${id.replace(/"/g, '\\"')}"`;

/** The row's values with one replaced, as a `pytest.param` under the given id. */
function asParam(row: DataRow, at: number, value: string, id: string): string {
  const values = row.items.map((item, i) => (i === at ? value : item.text));
  return `pytest.param(${values.join(', ')}, id=${pyString(id)})`;
}

/** The row's text with one value replaced, keeping its own spelling. */
export function inPlace(row: DataRow, at: number, value: string): string {
  const item = row.items[at]!;
  return row.text.slice(row.row.start, item.start) + value + row.text.slice(item.end, row.row.end);
}

/** Where after the row a duplicate goes: at the end of its line, after its comma (added when the row had none). */
function duplicateAfter(row: DataRow, dup: string): string | undefined {
  const { text } = row;
  const lineEnd = text.indexOf('\n', row.row.end) < 0 ? text.length : text.indexOf('\n', row.row.end);
  const between = text.slice(row.row.end, lineEnd).trim();
  const lineStart = text.lastIndexOf('\n', row.row.start) + 1;
  const indent = text.slice(lineStart, lineStart + (text.slice(lineStart).length - text.slice(lineStart).trimStart().length));
  if (between.startsWith(',')) return `${text.slice(0, lineEnd)}\n${indent}${dup},${text.slice(lineEnd)}`;
  if (between === '' || between.startsWith('#'))
    return `${text.slice(0, row.row.end)},${text.slice(row.row.end, lineEnd)}\n${indent}${dup}${text.slice(lineEnd)}`;
  return undefined;
}

function newLineOf(row: DataRow, offset: number): number {
  const hunk = row.file.hunks[row.hunkIndex]!;
  const before = hunk.lines.slice(0, row.run.first).filter((l) => l.op === ' ' || l.op === '+').length;
  return hunk.newStart + before + row.text.slice(0, offset).split('\n').length - 1;
}

/**
 * The patch with a row's value changed to `after`: in place (one-off) or as a copy right after it
 * (conflicting). A run the copy only extends keeps its lines as they were (a context row stays
 * context); otherwise the run's context lines are removed and its added ones replaced. Undefined
 * when the rows would not parse or the patch is not well-formed; `line` is where `after` lands.
 */
export function rowVariant(
  parser: Parser,
  patch: Patch,
  row: DataRow,
  after: string,
  type: MutationType,
): { testPatch: string; line: number } | undefined {
  const runText = type === 'oneoff' ? row.text.slice(0, row.row.start) + after + row.text.slice(row.row.end) : duplicateAfter(row, after);
  if (runText === undefined || !withTreeSync(parser, `[\n${runText}\n]\n`, (tree) => !tree.rootNode.hasError)) return undefined;
  const hunk = row.file.hunks[row.hunkIndex]!;
  const run = hunk.lines.slice(row.run.first, row.run.last + 1);
  const changed = runText.split('\n');
  const extended = runText.startsWith(`${row.text}\n`);
  const lines: PatchLine[] = [
    ...hunk.lines.slice(0, row.run.first),
    ...(extended ? run.map((l) => ({ ...l })) : run.flatMap((l) => (l.op === ' ' ? [{ op: '-' as const, text: l.text }] : []))),
    ...changed.slice(extended ? run.length : 0).map((text) => ({ op: '+' as const, text })),
    ...hunk.lines.slice(row.run.last + 1),
  ];
  const testPatch = withHunkLines(patch, { file: row.file, hunkIndex: row.hunkIndex, hunk }, lines);
  try {
    parsePatch(testPatch);
  } catch {
    return undefined;
  }
  const offset = type === 'oneoff' ? row.row.start : runText.indexOf(after, row.row.end);
  return { testPatch, line: newLineOf({ ...row, text: runText }, offset) };
}

function variantOf(parser: Parser, patch: Patch, t: Target, type: MutationType, rng: Rng, seed: number): SweVariant | undefined {
  const { row, param } = t;
  const hunk = row.file.hunks[row.hunkIndex]!;
  const shown = hunk.lines.filter((l) => l.op !== '-');
  const below = hunk.lines.slice(row.run.last + 1).filter((l) => l.op !== '-');
  // A row whose class is what `pytest.raises` expects changes that class; else its expected value.
  const raised = raisedClassChange(
    row,
    shown.map((l) => l.text),
    below.map((l) => l.text),
  );
  // A row named by a class (`InvalidURL-…`) is read only where the test shows what the class is for.
  if (!raised && row.items.some(namedByClass)) return undefined;
  const { at, named } = raised ? { at: raised.at, named: true } : expectedIndex(row);
  const item = row.items[at]!;
  const changed = raised ? { text: raised.text, strategy: 'raised-class' } : changedItem(parser, item.text, rng);
  if (!changed) return undefined;
  const before = row.text.slice(row.row.start, row.row.end);
  let after: string;
  let testId = t.ref.raw;
  if (type === 'oneoff') {
    // A value in a parametrize id changes the id: the row keeps its old one explicitly.
    after =
      param && row.explicitId === undefined && item.id !== undefined ? asParam(row, at, changed.text, param.id) : inPlace(row, at, changed.text);
  } else if (param) {
    const addedId = `${param.visible}-conflicting`.replace(/\s+/g, '_');
    after = asParam(row, at, changed.text, addedId);
    testId = `${t.ref.raw.slice(0, t.ref.raw.indexOf('['))}[${addedId}${param.rest}]`;
  } else after = inPlace(row, at, changed.text);
  const made = rowVariant(parser, patch, row, after, type);
  if (!made) return undefined;
  const kind = param ? 'parametrize-row' : 'table-row';
  const which = raised ? 'raised' : named ? 'named-expected' : 'last-value';
  const strategy = `${type === 'conflicting' ? 'duplicate/' : ''}${kind}/${which}/${changed.strategy}`;
  const record = { type, strategy, seed, line: made.line, before, after, file: row.file.newPath, testId };
  const addedTests = type === 'conflicting' && param ? [testId] : undefined;
  return { ok: true, testPatch: made.testPatch, wholeFunction: false, record, ...(addedTests ? { addedTests } : {}) };
}

/**
 * The variant made on a data row the patch adds when no assertion of the target test is in
 * reach: the one-off changes the row's expected value (the value a name such as `expected`
 * binds, else the last), so the fixed code fails that case; the conflicting variant adds the
 * row again with the changed value beside the original, so no code passes both. A duplicated
 * parametrize case runs under its own id, which the variant adds to the tests it grades.
 */
export function* dataRowMutation(input: KindInput): Generator<SweVariant> {
  const { parser, patch, testFiles, refs, type, rng, seed } = input;
  const rows = testFiles.flatMap((f) => addedRows(parser, f));
  const targets = refs.flatMap((ref) => rows.flatMap((row) => targetOf(ref, row) ?? []));
  // Rows whose expected value a name tells first, then those read by the default.
  const ordered = [...targets.filter((t) => expectedIndex(t.row).named), ...targets.filter((t) => !expectedIndex(t.row).named)];
  for (const t of ordered) {
    const made = variantOf(parser, patch, t, type, rng, seed);
    if (made) yield made;
  }
}
