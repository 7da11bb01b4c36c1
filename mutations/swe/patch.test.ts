import { describe, expect, it } from 'vitest';
import { formatPatch, isPythonTestFile, newLineNumbers, parsePatch, PatchError, recount } from './patch.js';
import { readJsonl, requireSharedData } from '../../core/testing/shared-data.js';

const PATCH = `diff --git a/tests/test_a.py b/tests/test_a.py
index 1111111..2222222 100644
--- a/tests/test_a.py
+++ b/tests/test_a.py
@@ -1,4 +1,5 @@ import os
 import pytest
+import sys
 
 def test_one():
     assert f(1) == 2
@@ -10,3 +11,3 @@ def test_two():
     x = 1
-    assert g(x) == 3
+    assert g(x) == 4
 
\\ No newline at end of file
diff --git a/tests/new_file.py b/tests/new_file.py
new file mode 100644
--- /dev/null
+++ b/tests/new_file.py
@@ -0,0 +1 @@
+VALUE = 1
`;

describe('unified diffs', () => {
  it('reads files, hunks and lines, and writes them back byte for byte', () => {
    const p = parsePatch(PATCH);
    expect(p.files.map((f) => [f.oldPath, f.newPath, f.hunks.length])).toEqual([
      ['tests/test_a.py', 'tests/test_a.py', 2],
      ['/dev/null', 'tests/new_file.py', 1],
    ]);
    const h = p.files[0]!.hunks[1]!;
    expect([h.oldStart, h.oldCount, h.newStart, h.newCount, h.context]).toEqual([10, 3, 11, 3, ' def test_two():']);
    expect(h.lines.at(-1)).toEqual({ op: '\\', text: ' No newline at end of file' });
    expect(p.files[1]!.hunks[0]!.newCount).toBe(1);
    expect(formatPatch(p)).toBe(PATCH);
    expect(newLineNumbers(p.files[0]!.hunks[0]!)).toEqual([1, 2, 3, 4, 5]);
  });

  it('recounts a changed hunk into a header in git form', () => {
    const p = parsePatch(PATCH);
    const h = p.files[0]!.hunks[0]!;
    h.lines.push({ op: '+', text: '    assert f(2) == 3' });
    recount(h);
    expect(h.header).toBe('@@ -1,4 +1,6 @@ import os');
    h.lines = [{ op: '+', text: 'x' }];
    recount(h);
    expect(h.header).toBe('@@ -1,0 +1 @@ import os');
  });

  it('names the line of a malformed patch', () => {
    expect(() => parsePatch('--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n-a\n+b\n')).toThrow(PatchError);
    expect(() => parsePatch('--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n-a\n+b\n')).toThrow(/header counts 2\/2 lines, the body has 1\/1/);
    expect(() => parsePatch('--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n?a\n')).toThrow(/line 4: hunk ends early/);
    expect(() => parsePatch('--- a/x.py\n+++ b/x.py\n@@ nonsense @@\n')).toThrow(/line 3: malformed hunk header/);
  });

  it('knows a Python test file', () => {
    expect(isPythonTestFile('tests/test_a.py')).toBe(true);
    expect(isPythonTestFile('pkg/tests.py')).toBe(true);
    expect(isPythonTestFile('lib/matplotlib/tests/test_axes.py')).toBe(true);
    expect(isPythonTestFile('tests/validators/valid_urls.txt')).toBe(false);
    expect(isPythonTestFile('src/module.py')).toBe(false);
  });

  it('round-trips every test patch and gold patch of SWE-bench Verified byte for byte', (ctx) => {
    const file = requireSharedData(ctx, 'swebench/verified.jsonl');
    for (const row of readJsonl<{ instance_id: string; patch: string; test_patch: string }>(file)) {
      expect(formatPatch(parsePatch(row.test_patch)), row.instance_id).toBe(row.test_patch);
      expect(formatPatch(parsePatch(row.patch)), row.instance_id).toBe(row.patch);
    }
  });
});
