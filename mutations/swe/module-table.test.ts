import { describe, expect, it } from 'vitest';
import { readJsonl, sharedDataFile } from '../../core/testing/shared-data.js';
import { MODULE_TABLE, MODULE_TABLE_VALUE } from '../testing/module-table-fixtures.js';
import { applyFilePatch } from './apply.js';
import { mutateSweTestPatch, type SweMutation } from './mutate.js';
import { parsePatch } from './patch.js';

const TYPES = ['oneoff', 'conflicting'] as const;

const run = (testPatch: string, failToPass: string[], type: (typeof TYPES)[number]) =>
  mutateSweTestPatch({ id: 'table', testPatch, failToPass }, type, 0);

/** The variant's hunk, from its header on. */
const hunkOf = (m: SweMutation) => {
  if (!m.ok) throw new Error(m.reason);
  return m.testPatch.slice(m.testPatch.indexOf('@@'));
};

/** What the engine made of a patch: the strategy, or why it made none. */
const outcome = (m: SweMutation) => (m.ok ? m.record.strategy : m.reason);

/** The fixture's added rows and context above them, as every hunk here shows them. */
const ADDED = `@@ -8,6 +8,8 @@
     (validate_slug, "hello-world", None),
     (validate_slug, "", ValidationError),
     (validate_slug, "has space", ValidationError),
+    (validate_slug, "hello\\n", ValidationError),
+    (validate_slug, "hello-world\\n", ValidationError),
     # Ports
`;

describe('rows added to a module-level table whose reader the patch does not show', () => {
  it('an error class a context row expects becomes None: the one-off changes that row, the conflicting one adds the changed copy after it', async () => {
    const ids = MODULE_TABLE.failToPass;
    const oneoff = await run(MODULE_TABLE.testPatch, ids, 'oneoff');
    // A row under another comment, the farthest from the change: the unfixed code treats it as the fixed code does.
    expect(hunkOf(oneoff)).toBe(
      `${ADDED}     (validate_port, 80, None),
-    (validate_port, 0, ValidationError),
+    (validate_port, 0, None),
`,
    );
    expect(oneoff.ok && oneoff.record).toMatchObject({
      strategy: 'module-table/unseen-reader/none-for-error',
      line: 15,
      before: '(validate_port, 0, ValidationError)',
      after: '(validate_port, 0, None)',
      testId: ids[0],
    });
    const conflicting = await run(MODULE_TABLE.testPatch, ids, 'conflicting');
    expect(hunkOf(conflicting)).toBe(
      `${ADDED.replace('+8,8', '+8,9')}     (validate_port, 80, None),
     (validate_port, 0, ValidationError),
+    (validate_port, 0, None),
`,
    );
    expect(conflicting.ok && conflicting.record).toMatchObject({ strategy: 'duplicate/module-table/unseen-reader/none-for-error', line: 16 });
    // Both apply to the base file and keep the test reading the table.
    for (const m of [oneoff, conflicting]) {
      if (!m.ok) continue;
      expect(applyFilePatch(MODULE_TABLE.base, parsePatch(m.testPatch).files[0]!)).toContain('        for validator, value, expected in TEST_DATA:');
    }
  });

  it('a context row that expects a value gets one the same column holds in a shown row', async () => {
    const ids = MODULE_TABLE_VALUE.failToPass;
    const oneoff = await run(MODULE_TABLE_VALUE.testPatch, ids, 'oneoff');
    expect(hunkOf(oneoff)).toBe(
      `${ADDED}     (validate_port, 0, ValidationError),
-    (validate_port, 80, None),
+    (validate_port, 80, ValidationError),
`,
    );
    expect(outcome(oneoff)).toBe('module-table/unseen-reader/shown-value');
    const conflicting = await run(MODULE_TABLE_VALUE.testPatch, ids, 'conflicting');
    expect(hunkOf(conflicting)).toBe(
      `${ADDED.replace('+8,8', '+8,9')}     (validate_port, 0, ValidationError),
     (validate_port, 80, None),
+    (validate_port, 80, ValidationError),
`,
    );
  });

  it('with no context row, one of two added rows changes; a single added row is left alone', async () => {
    // The table's opening line is shown: the rows are a module-level table even under a header.
    const two = `diff --git a/test_validators.py b/test_validators.py
--- a/test_validators.py
+++ b/test_validators.py
@@ -5,2 +5,4 @@ import unittest
 TEST_DATA = [
+    (validate_slug, "hello\\n", ValidationError),
+    (validate_slug, "hello-world\\n", ValidationError),
     # Slugs
`;
    const ids = MODULE_TABLE.failToPass;
    expect(hunkOf(await run(two, ids, 'oneoff'))).toBe(`@@ -5,2 +5,4 @@ import unittest
 TEST_DATA = [
+    (validate_slug, "hello\\n", None),
+    (validate_slug, "hello-world\\n", ValidationError),
     # Slugs
`);
    expect(hunkOf(await run(two, ids, 'conflicting'))).toBe(`@@ -5,2 +5,5 @@ import unittest
 TEST_DATA = [
+    (validate_slug, "hello\\n", ValidationError),
+    (validate_slug, "hello\\n", None),
+    (validate_slug, "hello-world\\n", ValidationError),
     # Slugs
`);
    const one = two.replace('@@ -5,2 +5,4 @@', '@@ -5,2 +5,3 @@').replace('+    (validate_slug, "hello-world\\n", ValidationError),\n', '');
    for (const type of TYPES) expect(outcome(await run(one, ids, type))).not.toMatch(/module-table/);
  });

  it('gives nothing when the test reading the table is in view, is parametrized, or the rows may lie in a function', async () => {
    const ids = MODULE_TABLE.failToPass;
    // The hunk runs on to the test that loops over the table.
    const shown = `diff --git a/test_validators.py b/test_validators.py
--- a/test_validators.py
+++ b/test_validators.py
@@ -13,8 +13,10 @@ TEST_DATA = [
     (validate_port, 0, ValidationError),
     (validate_port, 70000, ValidationError),
+    (validate_port, -1, ValidationError),
+    (validate_port, 65536, ValidationError),
 ]
 
 
 class ValidatorTests(unittest.TestCase):
     def test_validators(self):
         for validator, value, expected in TEST_DATA:
`;
    expect(applyFilePatch(MODULE_TABLE.base, parsePatch(shown).files[0]!)).toContain('(validate_port, 65536, ValidationError),\n]');
    const inFunction = MODULE_TABLE.testPatch.replace('@@ -8,6 +8,8 @@', '@@ -8,6 +8,8 @@ def make_rows():');
    const parametrized = ['test_validators.py::test_validators[validate_slug]'];
    for (const type of TYPES) {
      expect(outcome(await run(shown, ids, type))).not.toMatch(/module-table/);
      expect(outcome(await run(inFunction, ids, type))).not.toMatch(/module-table/);
      expect(outcome(await run(MODULE_TABLE.testPatch, parametrized, type))).not.toMatch(/module-table/);
    }
  });

  const verified = sharedDataFile('swebench/verified.jsonl');
  const title = "django's URL validator table: a row above the comment the patch changes expects None";
  it.skipIf(!verified)(verified ? title : `${title} (skipped: ../shared/data/swebench/verified.jsonl is absent)`, async () => {
    const row = readJsonl<{ instance_id: string; test_patch: string; FAIL_TO_PASS: string }>(verified!).find(
      (r) => r.instance_id === 'django__django-14349',
    )!;
    const ids = JSON.parse(row.FAIL_TO_PASS) as string[];
    const original = row.test_patch.slice(row.test_patch.indexOf('@@')).split('\n');
    const first = '    (URLValidator(), None, ValidationError),';
    expect(original[1]).toBe(` ${first}`);
    // The rows of the newline section may be what the fix is about: a row under another comment changes.
    const oneoff = hunkOf(await run(row.test_patch, ids, 'oneoff')).split('\n');
    expect(oneoff.slice(0, 3)).toEqual(['@@ -226,9 +226,15 @@', `-${first}`, '+    (URLValidator(), None, None),']);
    expect(oneoff.slice(3)).toEqual(original.slice(2));
    const conflicting = hunkOf(await run(row.test_patch, ids, 'conflicting')).split('\n');
    expect(conflicting.slice(0, 3)).toEqual(['@@ -226,9 +226,16 @@', ` ${first}`, '+    (URLValidator(), None, None),']);
    expect(conflicting.slice(3)).toEqual(original.slice(2));
  });
});
