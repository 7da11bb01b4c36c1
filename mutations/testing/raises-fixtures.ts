import type { RowKindFixture } from './row-kinds-fixtures.js';

/** A unittest test the patch adds whose only check is the exception class `assertRaises` expects, one of the project's own. */
export const RAISES_CLASS: RowKindFixture = {
  base: `import unittest

from orders import ReservedName, check


class CheckTests(unittest.TestCase):
    def test_plain_name(self):
        self.assertEqual(check("item"), "item")
`,
  testPatch: `diff --git a/test_orders.py b/test_orders.py
--- a/test_orders.py
+++ b/test_orders.py
@@ -6,3 +6,7 @@ from orders import ReservedName, check
 class CheckTests(unittest.TestCase):
     def test_plain_name(self):
         self.assertEqual(check("item"), "item")
+
+    def test_reserved_name(self):
+        with self.assertRaises(ReservedName):
+            check("order")
`,
  failToPass: ['test_orders.py::CheckTests::test_reserved_name'],
  test: 'test_reserved_name',
  solution: {
    'orders.py': `class ReservedName(ValueError):
    pass


def check(name):
    if name in ("order", "group"):
        raise ReservedName(f"{name} is a reserved word")
    return name
`,
  },
  unfixed: {
    'orders.py': `class ReservedName(ValueError):
    pass


def check(name):
    return name
`,
  },
};
