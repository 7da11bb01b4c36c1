import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../load.js';
import type { SweTask } from '../task.js';
import { sweTestSpec } from './swe-specs.js';

const DATA = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'swebench');
const haveData = existsSync(DATA);
if (!haveData) console.warn(`skipping: ${DATA} is absent (the shared data sets live in ../shared/data beside the project)`);

const base = { repo: 'o/p', testPatch: '', failToPass: [] as string[], passToPass: [] as string[] };

describe('the test command per repository', () => {
  it('runs django by module labels, sympy by files, everything else with pytest -rA', () => {
    const patch = (file: string) => `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-a\n+b\n`;
    expect(sweTestSpec({ ...base, repo: 'django/django', testPatch: patch('tests/forms_tests/tests/test_forms.py') }).command).toEqual([
      './tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite', '--parallel', '1', 'forms_tests.tests.test_forms',
    ]);
    expect(sweTestSpec({ ...base, repo: 'sympy/sympy', testPatch: patch('sympy/core/tests/test_basic.py') }).command).toEqual([
      'bin/test', '-C', '--verbose', 'sympy/core/tests/test_basic.py',
    ]);
    const pytest = sweTestSpec({ ...base, testPatch: patch('tests/test_a.py') + patch('docs/notes.txt') });
    expect(pytest.command).toEqual(['python3', '-m', 'pytest', '--no-header', '-rA', '--tb=short', '-p', 'no:cacheprovider', 'tests/test_a.py']);
    expect(sweTestSpec({ ...base, testPatch: patch('tests/a.py'), testCommand: ['make', 'check'] }).command).toEqual(['make', 'check']);
  });

  it('falls back to the graded tests when the test patch touches only data files', () => {
    const data = 'diff --git a/tests/data.txt b/tests/data.txt\n--- a/tests/data.txt\n+++ b/tests/data.txt\n@@ -1 +1 @@\n-a\n+b\n';
    expect(sweTestSpec({ ...base, repo: 'django/django', testPatch: data, failToPass: ['test_x (auth_tests.test_validators.UserTests)', 'test_y (auth_tests.test_validators.UserTests.test_y)'] }).command.slice(6)).toEqual([
      'auth_tests.test_validators',
    ]);
    expect(sweTestSpec({ ...base, testPatch: data, failToPass: ['tests/test_a.py::test_x[1]'], passToPass: ['tests/test_b.py::K::test_y'] }).command.slice(-2)).toEqual([
      'tests/test_a.py',
      'tests/test_b.py',
    ]);
  });

  it.runIf(haveData)('selects every graded test of the real SWE-bench rows', async () => {
    for (const file of ['verified.jsonl', 'lite-test.jsonl']) {
      const tasks = (await loadDataset(resolve(DATA, file))) as SweTask[];
      for (const t of tasks) {
        const spec = sweTestSpec(t);
        if (spec.parser === 'pytest') {
          for (const id of t.failToPass) expect(spec.command, `${t.id} ${id}`).toContain(id.split('::')[0]);
        }
        if (spec.parser === 'django') expect(spec.command.length, t.id).toBeGreaterThan(6);
      }
    }
  });
});
