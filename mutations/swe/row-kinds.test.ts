import { describe, expect, it } from 'vitest';
import { applyFilePatch } from './apply.js';
import { mutateSweTestPatch, type SweMutation } from './mutate.js';
import { parsePatch } from './patch.js';
import {
  CUT_LIST,
  CUT_TEXT,
  FIGURE_REF,
  INPUT_LISTS,
  MESSAGE_ITEM,
  NESTED_HELPER,
  POSITIONAL,
  POSITIONAL_CUT,
  RAISED_CLASS,
  type RowKindFixture,
} from '../testing/row-kinds-fixtures.js';

type Made = Extract<SweMutation, { ok: true }>;

async function both(fx: RowKindFixture): Promise<{ oneoff: Made; conflicting: Made }> {
  const input = { id: 'fixture', testPatch: fx.testPatch, failToPass: fx.failToPass };
  const [oneoff, conflicting] = [await mutateSweTestPatch(input, 'oneoff', 0), await mutateSweTestPatch(input, 'conflicting', 0)];
  if (!oneoff.ok || !conflicting.ok) throw new Error(`no variant: ${JSON.stringify([oneoff, conflicting])}`);
  return { oneoff, conflicting };
}

const apply = (base: string, patch: string) => applyFilePatch(base, parsePatch(patch).files[0]!);
const indent = (l: string) => l.length - l.trimStart().length;

/** Lines (0-based, inclusive) of a test function with its decorators and their tables. */
function functionLines(lines: string[], name: string): [number, number] {
  const def = lines.findIndex((l) => l.trimStart().startsWith(`def ${name}(`));
  if (def < 0) throw new Error(`no def ${name}`);
  const at = indent(lines[def]!);
  let start = def;
  while (start > 0 && lines[start - 1]!.trim() && (indent(lines[start - 1]!) > at || /^[@)\]]/.test(lines[start - 1]!.trim()))) start--;
  let end = def;
  while (end + 1 < lines.length && (!lines[end + 1]!.trim() || indent(lines[end + 1]!) > at)) end++;
  return [start, end];
}

/**
 * The variant's diff applies to the base test file, and every line it changes against the
 * original patch's file lies in the target test function (or its parametrize table).
 */
function checkPlacement(fx: RowKindFixture, m: Made): string[] {
  const original = apply(fx.base, fx.testPatch).split('\n');
  const variant = apply(fx.base, m.testPatch).split('\n');
  let head = 0;
  while (original[head] === variant[head]) head++;
  let tail = 0;
  while (tail < variant.length - head && original[original.length - 1 - tail] === variant[variant.length - 1 - tail]) tail++;
  const [start, end] = functionLines(variant, fx.test);
  expect(head, `first changed line ${head + 1} of ${m.testPatch}`).toBeGreaterThanOrEqual(start);
  expect(variant.length - 1 - tail, m.testPatch).toBeLessThanOrEqual(end);
  expect([...fx.failToPass, ...(m.addedTests ?? [])]).toContain(m.record.testId);
  return variant.slice(head, variant.length - tail);
}

describe('SWE variants of the kinds beyond assertions', () => {
  it('an exception class a parametrize row expects: the one-off names another class the table names, under the old id; the conflicting one adds that case', async () => {
    const { oneoff, conflicting } = await both(RAISED_CLASS);
    expect(checkPlacement(RAISED_CLASS, oneoff)).toEqual([
      '        pytest.param(InvalidSchema, "http://.example.com", id="InvalidURL-http://.example.com"),',
    ]);
    expect(oneoff.record.strategy).toBe('parametrize-row/raised/raised-class');
    expect(checkPlacement(RAISED_CLASS, conflicting)).toEqual([
      '        pytest.param(InvalidSchema, "http://.example.com", id="InvalidURL-http://.example.com-conflicting"),',
    ]);
    expect(conflicting.addedTests).toEqual(['test_urls.py::test_invalid_url[InvalidURL-http://.example.com-conflicting]']);
  });

  it('a row named by a class is left alone when the hunk does not show what the test does with the class', async () => {
    const cut = RAISED_CLASS.testPatch.replace('@@ -8,6 +8,7 @@', '@@ -8,5 +8,6 @@').replace('     with pytest.raises(exception):\n', '');
    const input = { id: 'fixture', testPatch: cut, failToPass: RAISED_CLASS.failToPass };
    for (const type of ['oneoff', 'conflicting'] as const) expect((await mutateSweTestPatch(input, type, 0)).ok).toBe(false);
  });

  it('an input added to the invalid list: the one-off moves an older invalid input to the valid list, the conflicting one lists the added input in both', async () => {
    const { oneoff, conflicting } = await both(INPUT_LISTS);
    // The added input is the one the unfixed code accepts: it stays where the patch put it.
    expect(checkPlacement(INPUT_LISTS, oneoff)).toEqual([
      `        valid_usernames = ["glenn", "jean-marc", "o'connell"]`,
      '        invalid_usernames = ["jean marc", "trailing\\n"]',
    ]);
    expect(oneoff.record).toMatchObject({ strategy: 'input-list/moved-older', line: 8 });
    expect(checkPlacement(INPUT_LISTS, conflicting)).toEqual(['        valid_usernames = ["glenn", "jean-marc", "trailing\\n"]']);
    expect(conflicting.record.strategy).toBe('duplicate/input-list/both-kinds');
  });

  it('cases named by index: the hunk shows no table start, the two named cases fix the offset; the copy goes last under the next index', async () => {
    const { oneoff, conflicting } = await both(POSITIONAL);
    const changed = checkPlacement(POSITIONAL, oneoff);
    // value5 is the first added row, three rows below the hunk's first (F(1, 3), index 2).
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^ {8}\(F\(-4, 5\), F\(.+\)\),$/);
    expect(changed[0]).not.toBe('        (F(-4, 5), F(-2, 5)),');
    expect(oneoff.record).toMatchObject({ testId: 'test_half.py::test_half[value5-expected5]', line: 16 });
    const added = checkPlacement(POSITIONAL, conflicting);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^ {8}\(F\(-4, 5\), F\(.+\)\),$/);
    expect(conflicting.record.testId).toBe('test_half.py::test_half[value7-expected7]');
    expect(conflicting.addedTests).toEqual(['test_half.py::test_half[value7-expected7]']);
    // The original cases keep their places: the copy follows the last row.
    const lines = apply(POSITIONAL.base, conflicting.testPatch).split('\n');
    expect(lines.indexOf(added[0]!)).toBe(lines.indexOf('        (F(-6, 7), F(-3, 7)),') + 1);
  });

  it('cases named by index in a table whose end is out of sight: the copy follows the last row shown, below every case the ids name', async () => {
    const { conflicting } = await both(POSITIONAL_CUT);
    const added = checkPlacement(POSITIONAL_CUT, conflicting);
    expect(added).toHaveLength(1);
    expect(conflicting.record.testId).toBe('test_half.py::test_half[value10-expected10]');
    const lines = apply(POSITIONAL_CUT.base, conflicting.testPatch).split('\n');
    expect(lines.indexOf(added[0]!)).toBe(lines.indexOf('        (F(9, 10), F(9, 20)),') + 1);
  });

  it('an expected list cut off by the hunk: the one-off changes the added element, the conflicting one asserts it absent first', async () => {
    const { oneoff, conflicting } = await both(CUT_LIST);
    const changed = checkPlacement(CUT_LIST, oneoff);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^ {8}"[^"]*",$/);
    expect(changed[0]).not.toBe('        "<c>",');
    expect(checkPlacement(CUT_LIST, conflicting)).toEqual(['    assert "<c>" not in list(actual)']);
    expect(conflicting.record.strategy).toBe('duplicate/cut-list/element-absent');
  });

  it('an expected text of pieces whose comparison lies below the hunk: the one-off changes the added piece, the conflicting one asserts it absent from the name assigned above', async () => {
    const { oneoff, conflicting } = await both(CUT_TEXT);
    const changed = checkPlacement(CUT_TEXT, oneoff);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^ {12}'[^']*\\n'$/);
    expect(changed[0]).not.toBe("            'decr(a)\\n'");
    expect(checkPlacement(CUT_TEXT, conflicting)).toEqual(["    assert 'decr(a)\\n' not in context"]);
    expect(conflicting.record.strategy).toBe('duplicate/cut-text/piece-absent');
    // With the comparison in sight the assertion kinds take it; a piece-only hunk below no assignment is left alone.
    const noSubject = CUT_TEXT.testPatch.replace('     context = render(names)\n', '     print(names)\n');
    expect((await mutateSweTestPatch({ id: 'fixture', testPatch: noSubject, failToPass: CUT_TEXT.failToPass }, 'conflicting', 0)).ok).toBe(false);
  });

  it('a figure comparison: the one-off draws on the reference figure last, the conflicting one asserts the two figures render differently', async () => {
    const { oneoff, conflicting } = await both(FIGURE_REF);
    expect(checkPlacement(FIGURE_REF, oneoff)).toEqual(['    fig_ref.text(0.5, 0.5, "x")']);
    expect(oneoff.record.strategy).toBe('figure-ref/text-drawn');
    const added = checkPlacement(FIGURE_REF, conflicting);
    expect(added).toHaveLength(3);
    expect(added[2]).toBe('    assert fig_test.canvas.buffer_rgba().tobytes() != fig_ref.canvas.buffer_rgba().tobytes()');
    // Both go after the test's own last line.
    const lines = apply(FIGURE_REF.base, conflicting.testPatch).split('\n');
    expect(lines.indexOf(added[0]!)).toBe(lines.indexOf('    where[0] = 0.75') + 1);
    // Without the decorator the figures are compared by nothing: no variant.
    const plain = FIGURE_REF.testPatch.replace('+@check_figures_equal(extensions=["png"])\n', '+\n');
    expect((await mutateSweTestPatch({ id: 'fixture', testPatch: plain, failToPass: FIGURE_REF.failToPass }, 'oneoff', 0)).ok).toBe(false);
  });

  it('a message check whose block ends out of sight: the conflicting variant adds the changed check as another item of the same with', async () => {
    const { oneoff, conflicting } = await both(MESSAGE_ITEM);
    expect(checkPlacement(MESSAGE_ITEM, oneoff)).toHaveLength(1);
    const [item] = checkPlacement(MESSAGE_ITEM, conflicting);
    expect(item).toMatch(/^ {16}self\.assertRaisesRegex\(RuntimeError, msg\), self\.assertRaisesRegex\(RuntimeError, \("[^"]+"\)\):$/);
    expect(item).not.toContain('("version 3.9 or later is required")');
    expect(conflicting.record.strategy).toMatch(/^added-item\/expected-variable\//);
  });
});

/** A hunk that opens in a class docstring's prose, the test below it with a check of its own. */
const DOCSTRING_PATCH = `diff --git a/tests/test_warnings.py b/tests/test_warnings.py
--- a/tests/test_warnings.py
+++ b/tests/test_warnings.py
@@ -3,7 +3,9 @@ class WarningTests(SimpleTestCase):
     Deprecation warning is raised when the argument is None.
     """
     msg = 'Passing None is deprecated.'
+    things = [Thing, OtherThing]
 
     def test_deprecation(self):
         with self.assertRaisesMessage(DeprecationWarning, self.msg):
-            Thing()
+            for thing in self.things:
+                thing()
`;

describe('a hunk that opens inside a docstring', () => {
  it('reads the closing quotes as the end of that docstring, so the test below is found', async () => {
    const input = { id: 'fixture', testPatch: DOCSTRING_PATCH, failToPass: ['test_deprecation (tests.test_warnings.WarningTests)'] };
    for (const type of ['oneoff', 'conflicting'] as const) {
      // Found, and its one statement read: a check of the error, which is never made to expect an error itself.
      const m = await mutateSweTestPatch(input, type, 0);
      expect(m.ok).toBe(false);
      if (!m.ok) expect(m.reason).toMatch(/^`test_deprecation .*its last statement calls the assertion helper `assertRaisesMessage`\)$/);
    }
  });
});

/** A test that writes a test file from a string; the second hunk opens inside that string, and git names a `def` of it. */
const STRING_BASE = `import pytest


class TestItems:
    def test_items(self, testdir):
        p = testdir.makepyfile(
            """
            def testone():
                pass

            class TestX:
                def testmethod_one(self):
                    pass

            class TestY(TestX):
                pass
        """
        )
        items, reprec = testdir.inline_genitems(p)
        assert len(items) == 3
        assert items[0].name == "testone"
        assert items[1].name == "testmethod_one"
`;
const STRING_PATCH = `diff --git a/test_items.py b/test_items.py
--- a/test_items.py
+++ b/test_items.py
@@ -5,6 +5,8 @@ class TestItems:
     def test_items(self, testdir):
         p = testdir.makepyfile(
             """
+            import pytest
+
             def testone():
                 pass
 
@@ -13,10 +15,12 @@ def testmethod_one(self):
                     pass
 
             class TestY(TestX):
-                pass
+                @pytest.mark.parametrize("arg0", [".["])
+                def testmethod_two(self, arg0):
+                    pass
         """
         )
         items, reprec = testdir.inline_genitems(p)
-        assert len(items) == 3
+        assert len(items) == 4
         assert items[0].name == "testone"
         assert items[1].name == "testmethod_one"
`;

describe('a hunk that opens inside a string the hunk before opened', () => {
  it('takes the enclosing test from the hunk before, not the def git found inside the string', async () => {
    const failToPass = ['test_items.py::TestItems::test_items'];
    const fx: RowKindFixture = { base: STRING_BASE, testPatch: STRING_PATCH, failToPass, test: 'test_items', solution: {} };
    for (const type of ['oneoff', 'conflicting'] as const) {
      const m = await mutateSweTestPatch({ id: 'fixture', testPatch: STRING_PATCH, failToPass }, type, 0);
      if (!m.ok) throw new Error(m.reason);
      expect(m.record.before).toMatch(/^assert (len\(items\) == 4|items\[\d\]\.name == "[a-z_]+")$/);
      checkPlacement(fx, m);
    }
  });
});

const FORM_BASE = `import unittest

from forms import fields_of


class FormTests(unittest.TestCase):
    def test_fields(self):
        class Form:
            class Meta:
                fields = ["a", "b"]
                exclude = []
                label = "x"

        self.assertEqual(fields_of(Form), ["a", "b"])
`;

const FORM_PATCH = `diff --git a/test_forms.py b/test_forms.py
--- a/test_forms.py
+++ b/test_forms.py
@@ -12,3 +12,4 @@ class Meta:
                 label = "x"
 
         self.assertEqual(fields_of(Form), ["a", "b"])
+        self.assertEqual(fields_of(Form, only=["a"]), ["a"])
`;

const HELPER_PATCH = `diff --git a/test_calc.py b/test_calc.py
--- a/test_calc.py
+++ b/test_calc.py
@@ -5,6 +5,7 @@ def make():
     value = 1
     value += 1
     value += 2
+    assert value == 4
 
 
 def test_other():
`;

describe('a test whose def lies above a hunk that git headed with a helper the test defines', () => {
  it('a method of a class the test defines: the lines at its body indentation belong to the test, and both variants change its added assertion', async () => {
    const { oneoff, conflicting } = await both(NESTED_HELPER);
    const [changed] = checkPlacement(NESTED_HELPER, oneoff);
    expect(changed).toMatch(/^ {4}assert Sub\.(size|run)\.__doc__ == "[^"]+"$/);
    expect(changed).not.toBe('    assert Sub.size.__doc__ == "The size."');
    expect(checkPlacement(NESTED_HELPER, conflicting)).toHaveLength(1);
    expect(conflicting.record.strategy).toMatch(/^duplicate\//);
  });

  it("a class nested in a test method, its hunk using self at the method's body level: the assertion is the test's", async () => {
    const failToPass = ['test_fields (test_forms.FormTests)'];
    const fx: RowKindFixture = { base: FORM_BASE, testPatch: FORM_PATCH, failToPass, test: 'test_fields', solution: {} };
    for (const type of ['oneoff', 'conflicting'] as const) {
      const m = await mutateSweTestPatch({ id: 'fixture', testPatch: FORM_PATCH, failToPass }, type, 0);
      if (!m.ok) throw new Error(m.reason);
      expect(checkPlacement(fx, m).join('\n')).toMatch(/self\.assertEqual\(fields_of\(Form/);
    }
  });

  it('a class the module-level test defines heads a hunk that adds a loop at the test body level: its last call, in the test, is made to expect an error', async () => {
    const patch = `diff --git a/test_calc.py b/test_calc.py
--- a/test_calc.py
+++ b/test_calc.py
@@ -9,5 +9,8 @@ class Config:
         convert(e, e)
     for e in ['a', 'b']:
         convert(e, e.upper())
+    for e in ['c']:
+        convert(e, e.upper())
+    convert('d', 'D')
 
 
 def test_other():
`;
    const made = await mutateSweTestPatch({ id: 'fixture', testPatch: patch, failToPass: ['test_calc.py::test_calc'] }, 'oneoff', 0);
    expect(made.ok && made.record).toMatchObject({ strategy: 'expect-error', testId: 'test_calc.py::test_calc' });
    const named = await mutateSweTestPatch(
      { id: 'fixture', testPatch: patch.replace('class Config:', 'class TestConfig:'), failToPass: ['test_calc.py::test_calc'] },
      'oneoff',
      0,
    );
    expect(named.ok).toBe(false);
  });

  it('in a pytest class, a hunk headed by __init__ belongs to a class the test defines; another nested class needs self in the lines', async () => {
    const patch = `diff --git a/test_wrap.py b/test_wrap.py
--- a/test_wrap.py
+++ b/test_wrap.py
@@ -9,4 +9,7 @@ def __init__(self, array):
         array = Custom([1, 2])
         assert wrap(array).size == 2
 
+        array = Custom([])
+        assert wrap(array).size == 0
+
 
`;
    const failToPass = ['test_wrap.py::TestWrap::test_custom'];
    const made = await mutateSweTestPatch({ id: 'fixture', testPatch: patch, failToPass }, 'oneoff', 0);
    expect(made.ok && made.record.testId).toBe(failToPass[0]);
    const nested = patch.replace('def __init__(self, array):', 'class Meta:');
    expect((await mutateSweTestPatch({ id: 'fixture', testPatch: nested, failToPass }, 'oneoff', 0)).ok).toBe(false);
  });

  it('a top-level helper (no self) is not read as the test: its lines belong to the helper', async () => {
    for (const type of ['oneoff', 'conflicting'] as const)
      expect((await mutateSweTestPatch({ id: 'fixture', testPatch: HELPER_PATCH, failToPass: ['test_calc.py::test_other'] }, type, 0)).ok).toBe(
        false,
      );
  });
});
