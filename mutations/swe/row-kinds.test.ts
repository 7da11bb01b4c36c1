import { describe, expect, it } from 'vitest';
import { applyFilePatch } from './apply.js';
import { mutateSweTestPatch, type SweMutation } from './mutate.js';
import { parsePatch } from './patch.js';
import { CUT_LIST, INPUT_LISTS, MESSAGE_ITEM, POSITIONAL, RAISED_CLASS, type RowKindFixture } from '../testing/row-kinds-fixtures.js';

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

  it('an input added to the invalid list: the one-off moves it to the valid list, the conflicting one lists it in both', async () => {
    const { oneoff, conflicting } = await both(INPUT_LISTS);
    expect(checkPlacement(INPUT_LISTS, oneoff)).toEqual([
      '        valid_usernames = ["glenn", "jean-marc", "trailing\\n"]',
      `        invalid_usernames = ["o'connell", "jean marc"]`,
    ]);
    expect(oneoff.record).toMatchObject({ strategy: 'input-list/moved', line: 8 });
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

  it('an expected list cut off by the hunk: the one-off changes the added element, the conflicting one asserts it absent first', async () => {
    const { oneoff, conflicting } = await both(CUT_LIST);
    const changed = checkPlacement(CUT_LIST, oneoff);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^ {8}"[^"]*",$/);
    expect(changed[0]).not.toBe('        "<c>",');
    expect(checkPlacement(CUT_LIST, conflicting)).toEqual(['    assert "<c>" not in list(actual)']);
    expect(conflicting.record.strategy).toBe('duplicate/cut-list/element-absent');
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
