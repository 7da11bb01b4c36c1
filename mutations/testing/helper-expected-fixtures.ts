import type { RowKindFixture } from './row-kinds-fixtures.js';

/** The optimizer's operations, and `optimize`, which lets an operation reduce itself with the next one. */
const OPERATIONS = `class Operation:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"

    def reduce(self, other):
        return None
`;

const OPTIMIZE = `

class Remove(Operation):
    pass


def optimize(operations):
    result = list(operations)
    i = 0
    while i < len(result) - 1:
        reduced = result[i].reduce(result[i + 1])
        if reduced is None:
            i += 1
        else:
            result[i : i + 2] = reduced
            i = max(i - 1, 0)
    return result
`;

/**
 * A unittest class with its own comparison helper, `assertOptimizesTo(operations, expected)`,
 * whose def the patch does not show; the patch adds a test whose expected value is an empty list.
 */
export const HELPER_EXPECTED: RowKindFixture = {
  base: `import unittest

from optimizer import Add, Remove, optimize


class OptimizerTests(unittest.TestCase):
    def assertOptimizesTo(self, operations, expected):
        result = [repr(op) for op in optimize(operations)]
        self.assertEqual(result, [repr(op) for op in expected])

    def test_single_add(self):
        self.assertOptimizesTo([Add("weight")], [Add("weight")])
`,
  testPatch: `diff --git a/test_optimizer.py b/test_optimizer.py
--- a/test_optimizer.py
+++ b/test_optimizer.py
@@ -10,3 +10,12 @@ class OptimizerTests(unittest.TestCase):
 
     def test_single_add(self):
         self.assertOptimizesTo([Add("weight")], [Add("weight")])
+
+    def test_add_remove(self):
+        self.assertOptimizesTo(
+            [
+                Add("weight"),
+                Remove("weight"),
+            ],
+            [],
+        )
`,
  failToPass: ['test_optimizer.py::OptimizerTests::test_add_remove'],
  test: 'test_add_remove',
  solution: {
    'optimizer.py': `${OPERATIONS}

class Add(Operation):
    def reduce(self, other):
        if isinstance(other, Remove) and other.name == self.name:
            return []
        return None
${OPTIMIZE}`,
  },
  unfixed: {
    'optimizer.py': `${OPERATIONS}

class Add(Operation):
    pass
${OPTIMIZE}`,
  },
};
