/**
 * Mutates the 500 SWE-bench Verified rows in ../shared/data both ways, without any repository,
 * and prints the coverage (variants targeting a FAIL_TO_PASS test), the well-formedness of every
 * emitted patch (re-parsed by an independent diff parser, hunk line counts checked), whether the
 * mutated function parses where it lies whole in the patch, and the time taken (target < 10 s).
 * Then it lists the rows still left out, with their reasons, and for those whose repository
 * ../shared holds (sympy) whether the whole test file at the base commit would reach them.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parsePatch as jsdiffParse } from 'diff';
import { mutateSweTestPatch, type SweMutation } from '../mutations/swe/mutate.js';
import { flipsOutcome } from '../mutations/outcome.js';
import { mutateTask } from '../mutations/task.js';
import { taskKind } from '../tasks/kinds/registry.js';
import { pythonParser } from '../python/parser.js';
import { SHARED_DATA } from '../core/testing/shared-data.js';
import { join } from 'node:path';
import { reportLeftOut } from './mutate-left-out.js';

const file = join(SHARED_DATA, 'swebench', 'verified.jsonl');
if (!existsSync(file)) {
  console.error(`bench:mutate needs ${file} (the shared data sets live in ../shared/data beside the project)`);
  process.exit(1);
}
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { instance_id: string; repo: string; base_commit: string; test_patch: string; FAIL_TO_PASS: string | string[] });
const f2p = (r: (typeof rows)[number]): string[] => (Array.isArray(r.FAIL_TO_PASS) ? r.FAIL_TO_PASS : (JSON.parse(r.FAIL_TO_PASS) as string[]));

/** Hunk counts as an independent parser reads them, checked against the lines of each hunk. */
function countsHold(patch: string): boolean {
  for (const file of jsdiffParse(patch)) {
    for (const h of file.hunks) {
      const old = h.lines.filter((l) => l[0] === ' ' || l[0] === '-').length;
      const neu = h.lines.filter((l) => l[0] === ' ' || l[0] === '+').length;
      if (old !== h.oldLines || neu !== h.newLines) return false;
    }
  }
  return true;
}

await pythonParser(); // load the grammar before the clock starts
const started = performance.now();
const results: { id: string; testPatch: string; f2p: string[]; oneoff: SweMutation; conflicting: SweMutation }[] = [];
for (const r of rows) {
  const input = { id: r.instance_id, testPatch: r.test_patch, failToPass: f2p(r) };
  results.push({
    id: r.instance_id,
    testPatch: r.test_patch,
    f2p: input.failToPass,
    oneoff: await mutateSweTestPatch(input, 'oneoff', 0),
    conflicting: await mutateSweTestPatch(input, 'conflicting', 0),
  });
}
const seconds = (performance.now() - started) / 1000;

let both = 0;
let firstTarget = 0;
let emitted = 0;
let wellFormed = 0;
let whole = 0;
const reasons = new Map<string, number>();
for (const r of results) {
  const ok = [r.oneoff, r.conflicting].filter(
    (m): m is Extract<SweMutation, { ok: true }> => m.ok && [...r.f2p, ...(m.addedTests ?? [])].includes(m.record.testId),
  );
  if (ok.length === 2) both++;
  for (const m of [r.oneoff, r.conflicting]) {
    if (!m.ok) {
      const key = m.reason.replace(/`[^`]*`/g, '`…`').replace(/\d+ FAIL_TO_PASS tests?/, 'N FAIL_TO_PASS tests');
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
      continue;
    }
    emitted++;
    if (m.record.testId === r.f2p[0]) firstTarget++;
    try {
      if (countsHold(m.testPatch)) wellFormed++;
    } catch {
      // counted as malformed
    }
    if (m.wholeFunction) whole++;
  }
}
const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;
console.log(`SWE-bench Verified: ${rows.length} rows, mutated both ways in ${seconds.toFixed(2)} s (target < 10 s)`);
console.log(`both variants targeting a FAIL_TO_PASS test: ${both}/${rows.length} (${pct(both, rows.length)}; target ≥ 90%)`);
console.log(`variants emitted: ${emitted}/${2 * rows.length}; targeting FAIL_TO_PASS[0]: ${firstTarget}`);
console.log(`well-formed unified diffs with correct hunk counts: ${wellFormed}/${emitted}`);
// One line to compare two versions of the engine by: equal digests mean byte-identical variants of every row.
const digest = createHash('sha256');
for (const r of results) for (const m of [r.oneoff, r.conflicting]) digest.update(`${r.id}\0${m.ok ? m.testPatch : `-${m.reason}`}\0`);
console.log(`variants digest (sha256 of every row's variants or reasons): ${digest.digest('hex').slice(0, 16)}`);
// The same rows through the task kind registry, as `mutate` and `run` make them: the same variants must come out.
let same = 0;
for (const [i, r] of results.entries()) {
  const made = taskKind('swe').rowToTask(rows[i], { source: 'verified.jsonl' });
  if (!made.ok) continue;
  for (const type of ['oneoff', 'conflicting'] as const) {
    const direct = r[type];
    const viaKind = await mutateTask(made.task, type, 0);
    if (direct.ok ? viaKind.ok && taskKind(viaKind.task).gradedTest(viaKind.task) === direct.testPatch : !viaKind.ok) same++;
  }
}
console.log(`the same through the task kind registry (mutateTask): ${same}/${2 * rows.length}`);
console.log(`mutated function whole inside the patch (re-parsed after the change): ${whole}/${emitted}`);
const flipped = results.flatMap((r) => (r.oneoff.ok && flipsOutcome(r.oneoff.record) ? [{ row: r, m: r.oneoff }] : []));
const onAdded = flipped.filter(({ row, m }) => {
  const first = m.record.before.split('\n')[0]!.trim();
  return row.testPatch.split('\n').some((l) => l.startsWith('+') && l.slice(1).trim() === first);
}).length;
const oneoffs = results.filter((r) => r.oneoff.ok).length;
console.log(
  `one-offs that flip an outcome (negation, bool, expect-error; validate before use): ${flipped.length}/${oneoffs}, ${onAdded} of them on lines the patch adds`,
);
console.log('why the others could not be mutated (per variant):');
for (const [reason, n] of [...reasons.entries()].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${reason}`);
await reportLeftOut(
  rows,
  results.filter((r) => !(r.oneoff.ok && r.conflicting.ok)),
);
