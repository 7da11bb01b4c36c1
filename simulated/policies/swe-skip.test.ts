import { describe, expect, it } from 'vitest';
import { changedLines } from './swe-skip.js';

/** skip-tests guards the functions a gold patch changes: which lines of the file before it the patch touches. */
describe('the lines a gold patch changes', () => {
  it('are the removed lines, and the line before each addition; files the patch creates and non-Python files have none', () => {
    const patch = [
      'diff --git a/pkg/m.py b/pkg/m.py',
      '--- a/pkg/m.py',
      '+++ b/pkg/m.py',
      '@@ -3,5 +3,6 @@ def f(x):',
      '     a = 1',
      '-    b = 2',
      '+    b = 3',
      '+    c = 4',
      '     return a + b',
      ' ',
      ' ',
      '@@ -20,2 +21,3 @@ def g(y):',
      '     y += 1',
      '+    y *= 2',
      '     return y',
      'diff --git a/pkg/new.py b/pkg/new.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/pkg/new.py',
      '@@ -0,0 +1 @@',
      '+X = 1',
      'diff --git a/README.md b/README.md',
      '--- a/README.md',
      '+++ b/README.md',
      '@@ -1 +1 @@',
      '-old',
      '+new',
      '',
    ].join('\n');
    expect(changedLines(patch)).toEqual({ 'pkg/m.py': [4, 20] });
  });
});
