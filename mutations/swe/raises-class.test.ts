import { describe, expect, it } from 'vitest';
import { applyFilePatch } from './apply.js';
import { mutateSweTestPatch } from './mutate.js';
import { parsePatch } from './patch.js';
import { RAISES_CLASS } from '../testing/raises-fixtures.js';

const run = (testPatch: string, type: 'oneoff' | 'conflicting') =>
  mutateSweTestPatch({ id: 'fixture', testPatch, failToPass: RAISES_CLASS.failToPass }, type, 0);
const applied = (patch: string) => applyFilePatch(RAISES_CLASS.base, parsePatch(patch).files[0]!).split('\n');

describe('the exception class an added assertRaises block expects', () => {
  it('one-off: the class becomes one no synchronous code raises; conflicting: that check is an outer item of the same with', async () => {
    const original = applied(RAISES_CLASS.testPatch);
    for (const [type, line] of [
      ['oneoff', '        with self.assertRaises(StopAsyncIteration):'],
      ['conflicting', '        with self.assertRaises(StopAsyncIteration), self.assertRaises(ReservedName):'],
    ] as const) {
      const m = await run(RAISES_CLASS.testPatch, type);
      if (!m.ok) throw new Error(m.reason);
      expect(m.record.strategy).toMatch(/raises-class/);
      const variant = applied(m.testPatch);
      // Only the with line changes; the call under test and everything else stay as they were.
      expect(variant.filter((l, i) => l !== original[i])).toEqual([line]);
      expect(variant).toHaveLength(original.length);
    }
  });

  it('pytest.raises is changed the same way', async () => {
    const patch = RAISES_CLASS.testPatch.replace('self.assertRaises(ReservedName)', 'pytest.raises(ReservedName)');
    const m = await run(patch, 'conflicting');
    if (!m.ok) throw new Error(m.reason);
    expect(m.record.after).toBe('with pytest.raises(StopAsyncIteration), pytest.raises(ReservedName):');
  });

  it('leaves alone a with line the patch does not add, and a check given more than the class', async () => {
    // The test's with line is context: the block held before the fix, and a changed class would contradict the unfixed code too.
    const kept = `diff --git a/test_orders.py b/test_orders.py
--- a/test_orders.py
+++ b/test_orders.py
@@ -9,2 +9,3 @@ class CheckTests(unittest.TestCase):
     def test_reserved_name(self):
         with self.assertRaises(ReservedName):
+            check("group")
`;
    for (const type of ['oneoff', 'conflicting'] as const) {
      const m = await run(kept, type);
      expect(m.ok ? m.record.strategy : m.reason).not.toMatch(/raises-class|valid unified diff/);
    }
    const callable = RAISES_CLASS.testPatch.replace(
      '+        with self.assertRaises(ReservedName):\n+            check("order")',
      '+        with self.assertRaises(ReservedName, msg="reserved"):\n+            check("order")',
    );
    const m = await run(callable, 'oneoff');
    expect(m.ok ? m.record.strategy : m.reason).not.toMatch(/raises-class|valid unified diff/);
  });
});
