import { describe, expect, it } from 'vitest';
import { readJsonl, sharedDataFile } from '../../core/testing/shared-data.js';
import { SHOWN_ROW } from '../testing/shown-row-fixtures.js';
import { applyFilePatch } from './apply.js';
import { mutateSweTestPatch, type SweMutation } from './mutate.js';
import type { SweVariant } from './types.js';
import { parsePatch } from './patch.js';
import { pythonParser } from '../../python/parser.js';
import { rngFor } from '../rng.js';
import { regionOf } from './fragment.js';
import { shownRowMutation } from './shown-row.js';
import { parseTestId } from './test-id.js';

type Made = Extract<SweMutation, { ok: true }>;

async function made(testPatch: string, failToPass: string[], type: 'oneoff' | 'conflicting'): Promise<Made> {
  const m = await mutateSweTestPatch({ id: 'fixture', testPatch, failToPass }, type, 0);
  if (!m.ok) throw new Error(m.reason);
  return m;
}

/** The kind alone on a patch's first hunk, where the engine would try the assertions in view first. */
async function tried(testPatch: string, id: string, type: 'oneoff' | 'conflicting'): Promise<SweVariant | undefined> {
  const parser = await pythonParser();
  const patch = parsePatch(testPatch);
  const parsed = regionOf(parser, patch.files[0]!, 0)!;
  try {
    const ref = parseTestId(id);
    const notes = { problems: [], unwrappable: [] };
    const input = {
      parser,
      patch,
      testFiles: patch.files,
      regions: [parsed],
      refs: [ref],
      targets: [],
      type,
      rng: rngFor(0, 'fixture', type),
      seed: 0,
      notes,
    };
    return shownRowMutation(input).next().value ?? undefined;
  } finally {
    parsed.tree.delete();
  }
}

async function alone(testPatch: string, id: string, type: 'oneoff' | 'conflicting'): Promise<Made> {
  const m = await tried(testPatch, id, type);
  if (!m?.ok) throw new Error(`no variant: ${JSON.stringify(m)}`);
  return m;
}

/** The hunk lines of a patch: everything below its first `@@` header. */
const hunk = (patch: string) => patch.slice(patch.indexOf('@@'));

describe('a row the hunk shows as context, of a table the test loops over', () => {
  it('the fixture: the row nearest the loop expects a type the table names elsewhere; the conflicting copy follows the row', async () => {
    const oneoff = await made(SHOWN_ROW.testPatch, SHOWN_ROW.failToPass, 'oneoff');
    expect(oneoff.record.strategy).toBe('shown-row/last-value/table-value');
    expect(hunk(oneoff.testPatch)).toBe(`@@ -11,7 +11,12 @@ def test_result_type(self):
             (float, int, float),
-            (float, float, float),
+            (float, float, int),
         ]
-        operators = ["+", "-", "*"]
+        operators = [
+            "+",
+            "-",
+            "*",
+            "%",
+        ]
         for lhs, rhs, combined in tests:
             for op in operators:
                 args = (lhs(3), op, rhs(2))
`);
    expect(oneoff.record).toMatchObject({ line: 12, before: '(float, float, float)', after: '(float, float, int)' });
    const conflicting = await made(SHOWN_ROW.testPatch, SHOWN_ROW.failToPass, 'conflicting');
    expect(conflicting.record.strategy).toBe('duplicate/shown-row/last-value/table-value');
    expect(hunk(conflicting.testPatch)).toBe(`@@ -11,7 +11,13 @@ def test_result_type(self):
             (float, int, float),
             (float, float, float),
+            (float, float, int),
         ]
-        operators = ["+", "-", "*"]
+        operators = [
+            "+",
+            "-",
+            "*",
+            "%",
+        ]
         for lhs, rhs, combined in tests:
             for op in operators:
                 args = (lhs(3), op, rhs(2))
`);
    expect(conflicting.record.line).toBe(13);
    // Both apply to the base file.
    for (const m of [oneoff, conflicting]) expect(applyFilePatch(SHOWN_ROW.base, parsePatch(m.testPatch).files[0]!)).toContain('"%",');
  });

  it('an assertion in view that compares the last target bare: another value of its column; a row without a comma gets one before its copy', async () => {
    const patch = `diff --git a/test_add.py b/test_add.py
--- a/test_add.py
+++ b/test_add.py
@@ -4,8 +4,8 @@ def test_add():
         (1, 2, 3),
         (2, 2, 4)
     ]
-    shifts = [0]
+    shifts = [0, 1]
     for a, b, total in tests:
         for s in shifts:
             assert add(a + s, b - s) == total
 
`;
    const oneoff = await alone(patch, 'test_add.py::test_add', 'oneoff');
    expect(oneoff.record.strategy).toBe('shown-row/asserted/column-value');
    expect(hunk(oneoff.testPatch)).toBe(`@@ -4,8 +4,8 @@ def test_add():
         (1, 2, 3),
-        (2, 2, 4)
+        (2, 2, 3)
     ]
-    shifts = [0]
+    shifts = [0, 1]
     for a, b, total in tests:
         for s in shifts:
             assert add(a + s, b - s) == total
 
`);
    const conflicting = await alone(patch, 'test_add.py::test_add', 'conflicting');
    expect(hunk(conflicting.testPatch)).toBe(`@@ -4,8 +4,9 @@ def test_add():
         (1, 2, 3),
-        (2, 2, 4)
+        (2, 2, 4),
+        (2, 2, 3)
     ]
-    shifts = [0]
+    shifts = [0, 1]
     for a, b, total in tests:
         for s in shifts:
             assert add(a + s, b - s) == total
 
`);
  });

  it('a target named as the expectation, in a table assigned in view: its literal changed when its column holds one value', async () => {
    const patch = `diff --git a/test_scale.py b/test_scale.py
--- a/test_scale.py
+++ b/test_scale.py
@@ -4,8 +4,8 @@ class ScaleTests(unittest.TestCase):
     def test_scale(self):
         cases = [
             (2, 4.0, "a"),
             (3, 4.0, "b"),
         ]
-        factors = [1]
+        factors = [1, 2]
         for n, expected, label in cases:
             for f in factors:
`;
    const ids = ['test_scale.py::ScaleTests::test_scale'];
    const oneoff = await made(patch, ids, 'oneoff');
    expect(oneoff.record.strategy).toMatch(/^shown-row\/named-expected\//);
    expect(oneoff.record.before).toBe('(3, 4.0, "b")');
    expect(oneoff.record.after).toMatch(/^\(3, (?!4\.0,)[^,]+, "b"\)$/);
    const lines = hunk(oneoff.testPatch).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '@@ -4,8 +4,8 @@ class ScaleTests(unittest.TestCase):',
      '     def test_scale(self):',
      '         cases = [',
      '             (2, 4.0, "a"),',
      '-            (3, 4.0, "b"),',
    ]);
    expect(lines[5]).toBe(`+            ${oneoff.record.after},`);
    const conflicting = await made(patch, ids, 'conflicting');
    expect(hunk(conflicting.testPatch).split('\n').slice(4, 6)).toEqual(['             (3, 4.0, "b"),', `+            ${conflicting.record.after},`]);
  });

  it('leaves the table alone when the loop in view reads the last target as an input, or the rows close another table', async () => {
    const input = `diff --git a/test_add.py b/test_add.py
--- a/test_add.py
+++ b/test_add.py
@@ -4,8 +4,8 @@ def test_add():
         (1, 2, 3),
         (2, 2, 4),
     ]
-    shifts = [0]
+    shifts = [0, 1]
     for a, b, c in tests:
         for s in shifts:
             check(a + s, b - s, c)
 
`;
    const reassigned = `diff --git a/test_add.py b/test_add.py
--- a/test_add.py
+++ b/test_add.py
@@ -4,6 +4,7 @@ def test_add():
         (1, 2, 3),
         (2, 2, 4),
     ]
+    tests = load_tests()
     for a, b, total in tests:
         for s in shifts:
             with helper(a, b):
`;
    for (const patch of [input, reassigned]) {
      for (const type of ['oneoff', 'conflicting'] as const) expect(await tried(patch, 'test_add.py::test_add', type)).toBeUndefined();
      // The same loop comparing the last target against the result is read.
      const compared = patch.replace('check(a + s, b - s, c)', 'assert add(a + s, b - s) == c');
      if (patch === input) expect((await tried(compared, 'test_add.py::test_add', 'oneoff'))?.ok).toBe(true);
      // Without the reassignment the rows are the looped table's.
      const kept = patch.replace('@@ -4,6 +4,7 @@', '@@ -4,6 +4,6 @@').replace('+    tests = load_tests()\n', '');
      if (patch === reassigned) expect((await tried(kept, 'test_add.py::test_add', 'oneoff'))?.ok).toBe(true);
    }
  });

  const verified = sharedDataFile('swebench/verified.jsonl');
  const title =
    'django__django-16082: a row of the combined-type table expects another field class; the changed connectors list stays as the patch has it';
  it.skipIf(!verified)(verified ? title : `${title} (skipped: ../shared/data/swebench/verified.jsonl is absent)`, async () => {
    const rows = readJsonl<{ instance_id: string; test_patch: string; FAIL_TO_PASS: string }>(verified!);
    const row = rows.find((r) => r.instance_id === 'django__django-16082')!;
    const ids = JSON.parse(row.FAIL_TO_PASS) as string[];
    const original = hunk(row.test_patch).split('\n');
    const shown = '            (FloatField, IntegerField, FloatField),';
    const changed = '            (FloatField, IntegerField, IntegerField),';
    const at = original.indexOf(` ${shown}`);
    expect(at).toBeGreaterThan(0);
    const oneoff = await made(row.test_patch, ids, 'oneoff');
    expect(oneoff.record).toMatchObject({ strategy: 'shown-row/last-value/table-value', testId: ids[0], line: 2417 });
    expect(hunk(oneoff.testPatch).split('\n')).toEqual([
      original[0]!,
      ...original.slice(1, at),
      `-${shown}`,
      `+${changed}`,
      ...original.slice(at + 1),
    ]);
    const conflicting = await made(row.test_patch, ids, 'conflicting');
    expect(conflicting.record).toMatchObject({ strategy: 'duplicate/shown-row/last-value/table-value', line: 2418 });
    expect(hunk(conflicting.testPatch).split('\n')).toEqual([
      original[0]!.replace('+2416,13', '+2416,14'),
      ...original.slice(1, at + 1),
      `+${changed}`,
      ...original.slice(at + 1),
    ]);
  });
});
