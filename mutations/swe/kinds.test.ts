import { describe, expect, it } from 'vitest';
import { MUTATION_KINDS } from './kinds.js';
import { mutateSweTestPatch } from './mutate.js';

/** Two data rows the patch adds and no assertion in view: only the data-row kind has candidates, one per row. */
const TWO_ROWS = `diff --git a/tests/test_unparse.py b/tests/test_unparse.py
--- a/tests/test_unparse.py
+++ b/tests/test_unparse.py
@@ -10,6 +10,8 @@
     ("a + b", "a + b"),
     ("- 1", "- 1"),
     ("()", "()"),
+    ("(1,)", "(1,)"),
+    ("(1, 2)", "(1, 2)"),
 ])
 def test_unparse(source, expected):
     module = ast.parse(source)
`;

/** An assertion in view beside a data row: the assertion's kind comes first. */
const ASSERTION_AND_ROW = `diff --git a/tests/test_unparse.py b/tests/test_unparse.py
--- a/tests/test_unparse.py
+++ b/tests/test_unparse.py
@@ -10,6 +10,8 @@
     ("a + b", "a + b"),
     ("()", "()"),
+    ("(1,)", "(1,)"),
 ])
 def test_unparse(source, expected):
     module = ast.parse(source)
-    assert unparse(module) == expected
+    assert unparse(module) == expected
+    assert len(unparse(module)) == 4
`;

describe('the mutation kinds', () => {
  it('are tried in this order', () => {
    expect(MUTATION_KINDS.map((k) => k.name)).toEqual([
      'expected-value',
      'negation',
      'raises-class',
      'helper-expected',
      'expect-error',
      'data-row',
      'input-list',
      'positional-row',
      'cut-list',
      'cut-text',
      'figure-ref',
      'shown-row',
      'module-table',
    ]);
  });

  it("name the kind in the variant's record, and a retry takes the same kind's next candidate before the next kind", async () => {
    const input = {
      id: 'row',
      testPatch: TWO_ROWS,
      failToPass: ['tests/test_unparse.py::test_unparse[(1,)-(1,)]', 'tests/test_unparse.py::test_unparse[(1, 2)-(1, 2)]'],
    };
    const first = await mutateSweTestPatch(input, 'oneoff', 0);
    if (!first.ok) throw new Error(first.reason);
    expect(first.record.kind).toBe('data-row');
    const second = await mutateSweTestPatch({ ...input, skip: new Set([first.testPatch]) }, 'oneoff', 0);
    if (!second.ok) throw new Error(second.reason);
    expect(second.record.kind).toBe('data-row');
    expect(second.record.before).not.toBe(first.record.before);
    const none = await mutateSweTestPatch({ ...input, skip: new Set([first.testPatch, second.testPatch]) }, 'oneoff', 0);
    expect(none).toEqual({ ok: false, reason: 'every variant the engine makes of it was tried' });
  });

  it('take the target test’s own assertion before a row it reads', async () => {
    const m = await mutateSweTestPatch(
      { id: 'row', testPatch: ASSERTION_AND_ROW, failToPass: ['tests/test_unparse.py::test_unparse[(1,)-(1,)]'] },
      'oneoff',
      0,
    );
    if (!m.ok) throw new Error(m.reason);
    expect(m.record.kind).toBe('expected-value');
  });
});
