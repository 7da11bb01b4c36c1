import type { RowKindFixture } from './row-kinds-fixtures.js';

const operators = (extra: string) => `OPERATORS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
${extra}}


def combine(lhs, op, rhs):
    if op not in OPERATORS:
        raise ValueError(f"unsupported operator {op!r}")
    return OPERATORS[op](lhs, rhs)
`;

/**
 * A test looping over a table whose last column is the expected type; the patch adds an operator
 * to the loop's other list, and the hunk shows the table's last rows as context only.
 */
export const SHOWN_ROW: RowKindFixture = {
  base: `import unittest

from calc import combine


class CombineTests(unittest.TestCase):
    def test_result_type(self):
        tests = [
            (int, int, int),
            (int, float, float),
            (float, int, float),
            (float, float, float),
        ]
        operators = ["+", "-", "*"]
        for lhs, rhs, combined in tests:
            for op in operators:
                args = (lhs(3), op, rhs(2))
                self.assertIs(type(combine(*args)), combined, args)
`,
  testPatch: `diff --git a/test_calc.py b/test_calc.py
--- a/test_calc.py
+++ b/test_calc.py
@@ -11,7 +11,12 @@ def test_result_type(self):
             (float, int, float),
             (float, float, float),
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
`,
  failToPass: ['test_calc.py::CombineTests::test_result_type'],
  test: 'test_result_type',
  solution: { 'calc.py': operators('    "%": lambda a, b: a % b,\n') },
  unfixed: { 'calc.py': operators('') },
};
