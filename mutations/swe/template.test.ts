import { describe, expect, it } from 'vitest';
import { readJsonl, sharedDataFile } from '../../core/testing/shared-data.js';
import { FORMATTED_MESSAGE } from '../testing/template-fixtures.js';
import { mutateSweTestPatch, type SweMutation } from './mutate.js';

type Made = Extract<SweMutation, { ok: true }>;

async function made(testPatch: string, failToPass: string[], type: 'oneoff' | 'conflicting', seed = 0, id = 'fixture'): Promise<Made> {
  const m = await mutateSweTestPatch({ id, testPatch, failToPass }, type, seed);
  if (!m.ok) throw new Error(m.reason);
  return m;
}

/** The lines a variant's patch has that the original's lacks, and the reverse. */
function changed(original: string, variant: string): { gone: string[]; come: string[] } {
  const a = original.split('\n');
  const b = variant.split('\n');
  return { gone: a.filter((l) => !b.includes(l)), come: b.filter((l) => !a.includes(l)) };
}

const NAMED = `diff --git a/test_range.py b/test_range.py
--- a/test_range.py
+++ b/test_range.py
@@ -5,3 +5,8 @@ class RangeTests(SimpleTestCase):
     def test_inside(self):
         self.assertEqual(check(3), 3)
 
+    def test_outside(self):
+        template = "value %(value)r is out of range %(low)d-%(high)d"
+        with self.assertRaisesMessage(ValueError, template % {"value": 7, "low": 1, "high": 5}):
+            check(7)
+
`;

const BRACES = `diff --git a/test_items.py b/test_items.py
--- a/test_items.py
+++ b/test_items.py
@@ -3,3 +3,8 @@ from items import describe
 def test_one():
     assert describe(1) == "1 item"
 
+def test_many():
+    expected = "{} items of {name!r}"
+    assert describe(3, name="x") == expected.format(3, name="x")
+
+
`;

describe('an expected message formatted from a template the test assigns', () => {
  it('msg % (value,): the one-off changes the template, the conflicting one spells the changed template out; the input stays', async () => {
    const fx = FORMATTED_MESSAGE;
    const oneoff = await made(fx.testPatch, fx.failToPass, 'oneoff');
    expect(oneoff.record.strategy).toBe('expected-variable/str-change-char');
    expect(changed(fx.testPatch, oneoff.testPatch)).toEqual({
      gone: ['+        msg = "“%s” value must be a decimal number."'],
      come: ['+        msg = "“%s” value must be a decizal number."'],
    });
    const conflicting = await made(fx.testPatch, fx.failToPass, 'conflicting');
    expect(conflicting.record.strategy).toBe('duplicate/expected-variable/str-change-char');
    expect(changed(fx.testPatch, conflicting.testPatch)).toEqual({
      gone: ['@@ -7,5 +7,11 @@ class ToDecimalTests(unittest.TestCase):'],
      come: [
        '@@ -7,5 +7,13 @@ class ToDecimalTests(unittest.TestCase):',
        '+            with self.assertRaisesRegex(ValueError, ("“%s” value must be a decimal nymber.") % (value,)):',
      ],
    });
    // The duplicate's block is the original's: the call under test, with the same input.
    expect(conflicting.testPatch).toContain(
      '+            with self.assertRaisesRegex(ValueError, ("“%s” value must be a decimal nymber.") % (value,)):\n+                to_decimal(value)\n',
    );
  });

  it('template % {…} with %(name)s placeholders: only the template changes, its placeholders and the arguments stay whole', async () => {
    const f2p = ['test_range.py::RangeTests::test_outside'];
    expect(changed(NAMED, (await made(NAMED, f2p, 'oneoff')).testPatch)).toEqual({
      gone: ['+        template = "value %(value)r is out of range %(low)d-%(high)d"'],
      come: ['+        template = "value %(value)r is out of razge %(low)d-%(high)d"'],
    });
    expect(changed(NAMED, (await made(NAMED, f2p, 'conflicting')).testPatch).come).toEqual([
      '@@ -5,3 +5,10 @@ class RangeTests(SimpleTestCase):',
      '+        with self.assertRaisesMessage(ValueError, ("value %(value)r is out of ranze %(low)d-%(high)d") % {"value": 7, "low": 1, "high": 5}):',
    ]);
    for (let seed = 0; seed < 30; seed++) {
      for (const type of ['oneoff', 'conflicting'] as const) {
        const { come } = changed(NAMED, (await made(NAMED, f2p, type, seed)).testPatch);
        const text = come.filter((l) => l.includes('%(value)r')).join('\n');
        expect(text, `seed ${seed} ${type}`).toMatch(/"\w+ %\(value\)r \w+ \w+ \w+ \w+ %\(low\)d-%\(high\)d"/);
        if (type === 'conflicting') expect(text).toContain('% {"value": 7, "low": 1, "high": 5}):');
      }
    }
  });

  it('expected.format(…) with {} and {name!r}: the template changes around them, never the arguments', async () => {
    const f2p = ['test_items.py::test_many'];
    expect(changed(BRACES, (await made(BRACES, f2p, 'oneoff')).testPatch)).toEqual({
      gone: ['+    expected = "{} items of {name!r}"'],
      come: ['+    expected = "{} items oq {name!r}"'],
    });
    for (let seed = 0; seed < 30; seed++) {
      for (const type of ['oneoff', 'conflicting'] as const) {
        const { come } = changed(BRACES, (await made(BRACES, f2p, type, seed)).testPatch);
        const text = come.filter((l) => l.includes('{name!r}')).join('\n');
        expect(text, `seed ${seed} ${type}`).toMatch(/"\{\} \w+ \w+ \{name!r\}"/);
        if (type === 'conflicting') expect(text).toContain('.format(3, name="x")');
      }
    }
  });

  it('n % 3 is a modulo, not a template: a number assigned to n is never changed for it', async () => {
    const modulo = BRACES.replace('test_many', 'test_wrap')
      .replace('expected = "{} items of {name!r}"', 'n = 10')
      .replace('assert describe(3, name="x") == expected.format(3, name="x")', 'assert describe(n) == n % 3');
    for (const type of ['oneoff', 'conflicting'] as const) {
      const m = await made(modulo, ['test_items.py::test_wrap'], type);
      expect(m.testPatch).toContain('+    n = 10\n');
      expect(m.record.strategy).not.toMatch(/expected-variable/);
    }
  });

  const verified = sharedDataFile('swebench/verified.jsonl');
  const title = 'django__django-13023: the decimal message template changes, never the values the test feeds the field';
  it.skipIf(!verified)(verified ? title : `${title} (skipped: ../shared/data/swebench/verified.jsonl is absent)`, async () => {
    const row = readJsonl<{ instance_id: string; test_patch: string; FAIL_TO_PASS: string }>(verified!).find(
      (r) => r.instance_id === 'django__django-13023',
    )!;
    const f2p = JSON.parse(row.FAIL_TO_PASS) as string[];
    const oneoff = await made(row.test_patch, f2p, 'oneoff', 0, row.instance_id);
    expect(oneoff.record.testId).toBe('test_invalid_value (model_fields.test_decimalfield.DecimalFieldTests)');
    expect(changed(row.test_patch, oneoff.testPatch)).toEqual({
      gone: ["+        msg = '“%s” value must be a decimal number.'"],
      come: ["+        msg = '“%s” value must by a decimal number.'"],
    });
    const conflicting = await made(row.test_patch, f2p, 'conflicting', 0, row.instance_id);
    expect(changed(row.test_patch, conflicting.testPatch)).toEqual({
      gone: ['@@ -21,9 +21,24 @@ def test_to_python(self):'],
      come: [
        '@@ -21,9 +21,26 @@ def test_to_python(self):',
        "+                with self.assertRaisesMessage(ValidationError, ('“%s” value must be a decimbl number.') % (value,)):",
      ],
    });
    expect(conflicting.testPatch).toContain(
      "+                    field.clean(value, None)\n+                with self.assertRaisesMessage(ValidationError, ('“%s” value must be a decimbl number.') % (value,)):\n+                    field.clean(value, None)\n",
    );
  });
});
