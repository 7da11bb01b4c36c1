import type { RowKindFixture } from './row-kinds-fixtures.js';

/**
 * A unittest test the patch adds whose expected message is a template filled with each input
 * (`msg % (value,)`). Before the fix, inputs float() refuses by type escape as a TypeError.
 */
export const FORMATTED_MESSAGE: RowKindFixture = {
  base: `import unittest

from decimals import to_decimal


class ToDecimalTests(unittest.TestCase):
    def test_number(self):
        self.assertEqual(to_decimal("1.5"), 1.5)

    def test_integer(self):
        self.assertEqual(to_decimal("2"), 2.0)
`,
  testPatch: `diff --git a/test_decimals.py b/test_decimals.py
--- a/test_decimals.py
+++ b/test_decimals.py
@@ -7,5 +7,11 @@ class ToDecimalTests(unittest.TestCase):
     def test_number(self):
         self.assertEqual(to_decimal("1.5"), 1.5)
 
+    def test_invalid_value(self):
+        msg = "“%s” value must be a decimal number."
+        for value in ["abc", None, object]:
+            with self.assertRaisesRegex(ValueError, msg % (value,)):
+                to_decimal(value)
+
     def test_integer(self):
         self.assertEqual(to_decimal("2"), 2.0)
`,
  failToPass: ['test_decimals.py::ToDecimalTests::test_invalid_value'],
  test: 'test_invalid_value',
  solution: {
    'decimals.py': `def to_decimal(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError("“%s” value must be a decimal number." % (value,)) from None
`,
  },
  unfixed: {
    'decimals.py': `def to_decimal(value):
    try:
        return float(value)
    except ValueError:
        raise ValueError("“%s” value must be a decimal number." % (value,)) from None
`,
  },
};
