import { describe, expect, it } from 'vitest';
import { mutateSweTestPatch } from './mutate.js';

/** A parametrize table whose new row's expected value the test compares against; its body lies below the hunk. */
const PARAMETRIZE = `diff --git a/tests/test_unparse.py b/tests/test_unparse.py
--- a/tests/test_unparse.py
+++ b/tests/test_unparse.py
@@ -10,6 +10,7 @@
     ("a + b", "a + b"),
     ("- 1", "- 1"),
     ("()", "()"),
+    ("(1,)", "(1,)"),
 ])
 def test_unparse(source, expected):
     module = ast.parse(source)
`;

/** A django-style table in a test body, looped over under names that say which value is expected. */
const TABLE = `diff --git a/tests/utils_tests/test_dateparse.py b/tests/utils_tests/test_dateparse.py
--- a/tests/utils_tests/test_dateparse.py
+++ b/tests/utils_tests/test_dateparse.py
@@ -113,6 +113,7 @@ def test_negative(self):
         test_values = (
             ('-4 15:30', timedelta(days=-4, minutes=15, seconds=30)),
             ('-172800', timedelta(days=-2)),
+            ('-01:01', timedelta(seconds=-61)),
         )
         for source, expected in test_values:
             with self.subTest(source=source):
`;

/** A module-level table of \`pytest.param\` rows with their own ids, under a second parametrize decorator. */
const PARAMS = `diff --git a/tests/test_poly.py b/tests/test_poly.py
--- a/tests/test_poly.py
+++ b/tests/test_poly.py
@@ -20,6 +20,11 @@ def test_where():
             [1.0, 2.0],
             id="simple",
         ),
+        pytest.param(
+            [1000, 2000],
+            [2000.5, 4000.5],
+            id="scaled",
+        ),
     ],
 )
 def test_polyval(
`;

/** The hunk with its changed lines: the patch's lines from the hunk header on. */
const hunkOf = (patch: string) => patch.slice(patch.indexOf('@@'));

async function both(testPatch: string, id: string) {
  const input = { id: 'row', testPatch, failToPass: [id] };
  const [oneoff, conflicting] = [await mutateSweTestPatch(input, 'oneoff', 0), await mutateSweTestPatch(input, 'conflicting', 0)];
  if (!oneoff.ok || !conflicting.ok) throw new Error(`no variant: ${JSON.stringify([oneoff, conflicting])}`);
  return { oneoff, conflicting };
}

describe('data rows the patch adds', () => {
  it('a parametrize case: the one-off changes the value bound to `expected` under its old id; the conflicting one adds the changed case under an id of its own', async () => {
    const { oneoff, conflicting } = await both(PARAMETRIZE, 'tests/test_unparse.py::test_unparse[(1,)-(1,)]');
    expect(hunkOf(oneoff.testPatch)).toBe(`@@ -10,6 +10,7 @@
     ("a + b", "a + b"),
     ("- 1", "- 1"),
     ("()", "()"),
+    pytest.param("(1,)", "(0,)", id="(1,)-(1,)"),
 ])
 def test_unparse(source, expected):
     module = ast.parse(source)
`);
    expect(oneoff.record).toMatchObject({ strategy: 'parametrize-row/named-expected/str-change-char', line: 13, before: '("(1,)", "(1,)")' });
    expect(oneoff.record.testId).toBe('tests/test_unparse.py::test_unparse[(1,)-(1,)]');
    expect(oneoff.addedTests).toBeUndefined();
    expect(hunkOf(conflicting.testPatch)).toBe(`@@ -10,6 +10,8 @@
     ("a + b", "a + b"),
     ("- 1", "- 1"),
     ("()", "()"),
+    ("(1,)", "(1,)"),
+    pytest.param("(1,)", "(2,)", id="(1,)-(1,)-conflicting"),
 ])
 def test_unparse(source, expected):
     module = ast.parse(source)
`);
    expect(conflicting.record).toMatchObject({ strategy: 'duplicate/parametrize-row/named-expected/str-change-char', line: 14 });
    // The added case is graded with the rest: it and the original cannot both pass.
    expect(conflicting.record.testId).toBe('tests/test_unparse.py::test_unparse[(1,)-(1,)-conflicting]');
    expect(conflicting.addedTests).toEqual(['tests/test_unparse.py::test_unparse[(1,)-(1,)-conflicting]']);
  });

  it('a pytest.param row with its own id, under a second decorator, and a signature the hunk cuts off: the last value, recorded as the default', async () => {
    const { oneoff, conflicting } = await both(PARAMS, 'tests/test_poly.py::test_polyval[scaled-False]');
    expect(hunkOf(oneoff.testPatch)).toBe(`@@ -20,6 +20,11 @@ def test_where():
             [1.0, 2.0],
             id="simple",
         ),
+        pytest.param(
+            [1000, 2000],
+            [2000.5, 4400.6],
+            id="scaled",
+        ),
     ],
 )
 def test_polyval(
`);
    expect(oneoff.record.strategy).toBe('parametrize-row/last-value/list-item/float-shift');
    expect(oneoff.record.testId).toBe('tests/test_poly.py::test_polyval[scaled-False]');
    expect(conflicting.testPatch).toContain(`+        ),
+        pytest.param([1000, 2000], [2200.6, 4000.5], id="scaled-conflicting"),
     ],`);
    expect(conflicting.addedTests).toEqual(['tests/test_poly.py::test_polyval[scaled-conflicting-False]']);
  });

  it('a table in the test body: the value the loop binds to `expected` changes, or a changed copy of the row follows it', async () => {
    const { oneoff, conflicting } = await both(TABLE, 'test_negative (utils_tests.test_dateparse.DurationParseTests)');
    expect(hunkOf(oneoff.testPatch)).toBe(`@@ -113,6 +113,7 @@ def test_negative(self):
         test_values = (
             ('-4 15:30', timedelta(days=-4, minutes=15, seconds=30)),
             ('-172800', timedelta(days=-2)),
+            ('-01:01', timedelta(seconds=-60)),
         )
         for source, expected in test_values:
             with self.subTest(source=source):
`);
    expect(oneoff.record).toMatchObject({ strategy: 'table-row/named-expected/call-kwarg/int-shift', line: 116 });
    expect(hunkOf(conflicting.testPatch)).toBe(`@@ -113,6 +113,8 @@ def test_negative(self):
         test_values = (
             ('-4 15:30', timedelta(days=-4, minutes=15, seconds=30)),
             ('-172800', timedelta(days=-2)),
+            ('-01:01', timedelta(seconds=-61)),
+            ('-01:01', timedelta(seconds=-62)),
         )
         for source, expected in test_values:
             with self.subTest(source=source):
`);
    // The same test reads both rows: no new id.
    expect(conflicting.record.testId).toBe('test_negative (utils_tests.test_dateparse.DurationParseTests)');
    expect(conflicting.addedTests).toBeUndefined();
  });

  it('leaves a row of one value (the input, not an expectation) and a row whose id is not the test id', async () => {
    const single = PARAMETRIZE.replace('+    ("(1,)", "(1,)"),', '+    "(1,)",');
    const one = await mutateSweTestPatch({ id: 'row', testPatch: single, failToPass: ['tests/test_unparse.py::test_unparse[(1,)]'] }, 'oneoff', 0);
    expect(one.ok).toBe(false);
    const other = await mutateSweTestPatch(
      { id: 'row', testPatch: PARAMETRIZE, failToPass: ['tests/test_unparse.py::test_unparse[()-()]'] },
      'oneoff',
      0,
    );
    expect(other.ok).toBe(false);
  });
});
