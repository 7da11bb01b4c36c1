import type { Parser } from 'web-tree-sitter';
import type { MutationType } from '../outcome.js';
import type { Rng } from '../rng.js';
import { changedItem } from './data-row-variant.js';
import { EXPECTED_NAME } from './data-rows.js';
import { withHunkLines } from './emit.js';
import { parsePatch, type FilePatch, type Hunk, type Patch, type PatchLine } from './patch.js';
import { positionalParam, shownTable, tableOffset, type ShownTable } from './positional-table.js';
import { fileMayHold, type TestRef } from './test-id.js';
import type { SweVariant, KindInput } from './types.js';

const DEF = /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/;

/** The hunk with the table's lines replaced by `text`'s: lines that differ become removed and added ones. */
function hunkWith(hunk: Hunk, table: ShownTable, text: string): PatchLine[] {
  const old = table.lines.map((i) => hunk.lines[i]!.text);
  const neu = text.split('\n');
  let head = 0;
  while (head < old.length && head < neu.length && old[head] === neu[head]) head++;
  let tail = 0;
  while (tail < old.length - head && tail < neu.length - head && old[old.length - 1 - tail] === neu[neu.length - 1 - tail]) tail++;
  if (head === old.length && head === neu.length) return hunk.lines.map((l) => ({ ...l }));
  // The hunk lines the differing part spans (removed lines among them stay removed).
  const from = head < old.length ? table.lines[head]! : table.lines[head - 1]! + 1;
  const to = old.length - tail - 1 >= head ? table.lines[old.length - tail - 1]! : from - 1;
  const out: PatchLine[] = hunk.lines.slice(0, from).map((l) => ({ ...l }));
  for (let i = from; i <= to; i++) {
    const l = hunk.lines[i]!;
    if (l.op === '-') out.push({ ...l });
    else if (l.op === ' ') out.push({ op: '-', text: l.text });
  }
  for (const t of neu.slice(head, neu.length - tail)) out.push({ op: '+', text: t });
  return out.concat(hunk.lines.slice(to + 1).map((l) => ({ ...l })));
}

/** Whether the table is what the test reads: the test the hunk shows right below it, or no other one. */
function readBy(table: ShownTable, file: FilePatch, hunkIndex: number, name: string): boolean {
  const below = table.after ? DEF.exec(table.after)?.[1] : undefined;
  if (below) return below === name;
  const laterHeader = file.hunks.slice(hunkIndex + 1).some((h) => DEF.exec(h.context)?.[1] === name);
  return !table.startKnown || laterHeader;
}

/** The text with a changed copy of the table's case after the last row shown, under the next index. */
function appended(table: ShownTable, copy: string): string | undefined {
  const last = table.rows[table.rows.length - 1];
  if (!last) return undefined;
  const { text } = table;
  const lineEnd = text.indexOf('\n', last.end) < 0 ? text.length : text.indexOf('\n', last.end);
  const between = text.slice(last.end, lineEnd).trim();
  if (between.startsWith(',')) return `${text.slice(0, lineEnd)}\n${table.rowIndent}${copy},${text.slice(lineEnd)}`;
  if (between === '' || between.startsWith('#'))
    return `${text.slice(0, last.end)},${text.slice(last.end, lineEnd)}\n${table.rowIndent}${copy},${text.slice(lineEnd)}`;
  return undefined;
}

interface Target {
  ref: TestRef;
  file: FilePatch;
  hunkIndex: number;
  table: ShownTable;
  at: number;
  names: string[];
  offset: number;
  /** The indexes of all the cases the FAIL_TO_PASS ids name in this table. */
  indexes: number[];
}

function variantOf(parser: Parser, patch: Patch, t: Target, type: MutationType, rng: Rng, seed: number): SweVariant | undefined {
  const { table } = t;
  const row = table.rows[t.at - t.offset];
  if (!row || row.items.length === 0) return undefined;
  const named = t.names.findIndex((n) => EXPECTED_NAME.test(n));
  const item = row.items[named >= 0 ? named : row.items.length - 1]!;
  const changed = changedItem(parser, item.text, rng);
  if (!changed) return undefined;
  const changedRow = table.text.slice(row.start, item.start) + changed.text + table.text.slice(item.end, row.end);
  let text: string | undefined;
  let testId = t.ref.raw;
  if (type === 'oneoff') text = table.text.slice(0, row.start) + changedRow + table.text.slice(row.end);
  else {
    // A dict's case is its value: the copy goes under a key of its own.
    const key = row.key;
    if (table.dict && !(key && /^(['"])[\w-]*\1$/.test(key.text))) return undefined;
    const copy = key ? `${key.text.slice(0, -1)}_conflicting${key.text.slice(-1)}${changedRow.slice(key.end - row.start)}` : changedRow;
    const index = t.offset + table.rows.length;
    // Below an unseen end, the cases under the copy move down one index: none the ids name may.
    if (!table.endVisible && Math.max(...t.indexes) >= index) return undefined;
    text = appended(table, copy);
    testId = `${t.ref.raw.slice(0, t.ref.raw.indexOf('['))}[${t.names.map((n) => `${n}${index}`).join('-')}]`;
  }
  if (text === undefined) return undefined;
  const hunk = t.file.hunks[t.hunkIndex]!;
  const lines = hunkWith(hunk, table, text);
  const testPatch = withHunkLines(patch, { file: t.file, hunkIndex: t.hunkIndex, hunk }, lines);
  try {
    parsePatch(testPatch);
  } catch {
    return undefined;
  }
  // The changed row's first line, or the line after the last row where the copy goes.
  const newLineOf = (hunkLine: number) => hunk.newStart + hunk.lines.slice(0, hunkLine).filter((l) => l.op === ' ' || l.op === '+').length;
  const lastRow = table.rows[table.rows.length - 1]!;
  const line = type === 'oneoff' ? newLineOf(row.firstLine) : newLineOf(lastRow.lastLine) + 1;
  const strategy = `${type === 'conflicting' ? 'duplicate/' : ''}positional-row/${named >= 0 ? 'named-expected' : 'last-value'}/${changed.strategy}`;
  const record = { type, strategy, seed, line, before: table.text.slice(row.start, row.end), after: changedRow, file: t.file.newPath, testId };
  return { ok: true, testPatch, wholeFunction: false, record, ...(type === 'conflicting' ? { addedTests: [testId] } : {}) };
}

/**
 * A parametrize case whose FAIL_TO_PASS id names it by position (`test_x[arg4-expected4]`):
 * pytest spells such a case by its argument names and its index in the table, so the case is the
 * row at that index, counted from the table's start when the hunk shows it, else placed by the
 * one offset that lands every named case on a row the patch adds. The one-off changes its
 * expected value (the id keeps), the conflicting variant appends a changed copy as the table's
 * last row (so no other case moves) and grades it under the next index; when the table's end is
 * out of sight, after the last row shown, provided no case an id names lies below it (the cases
 * below, which pass either way, move down one index).
 */
export function* positionalRowMutation(input: KindInput): Generator<SweVariant> {
  const { parser, patch, testFiles, refs, type, rng, seed } = input;
  for (const ref of refs) {
    const pos = positionalParam(ref.param);
    if (!pos || !ref.name) continue;
    const same = refs.filter((r) => r.name === ref.name && r.file === ref.file && positionalParam(r.param)?.names.join() === pos.names.join());
    const indexes = same.map((r) => positionalParam(r.param)!.index);
    for (const file of testFiles) {
      if (!fileMayHold(ref, file.newPath)) continue;
      for (let h = 0; h < file.hunks.length; h++) {
        const table = shownTable(parser, file.hunks[h]!, pos.names.length);
        if (!table || !readBy(table, file, h, ref.name)) continue;
        const offset = tableOffset(table, indexes);
        if (offset === undefined) continue;
        const made = variantOf(parser, patch, { ref, file, hunkIndex: h, table, at: pos.index, names: pos.names, offset, indexes }, type, rng, seed);
        if (made) yield made;
      }
    }
  }
}
