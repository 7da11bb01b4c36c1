import { describe, expect, it } from 'vitest';
import { readJsonl, requireSharedData } from '../../core/testing/shared-data.js';
import { sweRowToTask } from '../rows.js';
import type { SweTask } from '../task.js';
import { HARNESS_SPECS } from './harness-specs.js';
import { sweTestSpec } from './swe-specs.js';

const base = { repo: 'o/p', testPatch: '', failToPass: [] as string[], passToPass: [] as string[] };
const patch = (file: string) => `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-a\n+b\n`;

describe('the test spec per repository and version', () => {
  it("takes the harness's command, variables and parser, with the test patch's files appended", () => {
    const django = sweTestSpec({ ...base, repo: 'django/django', version: '3.1', testPatch: patch('tests/forms_tests/tests/test_forms.py') });
    expect(django.command).toBe('./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 forms_tests.tests.test_forms');
    expect(django.env).toEqual({ LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8', LANGUAGE: 'en_US:en' });
    expect(django.rootSetup).toEqual(["sed -i '/en_US.UTF-8/s/^# //g' /etc/locale.gen && locale-gen"]);
    expect(django.parser).toBe('django');
    expect(sweTestSpec({ ...base, repo: 'django/django', version: '1.9', testPatch: patch('tests/a/tests.py') }).command).toBe(
      './tests/runtests.py --verbosity 2 a.tests',
    );
    expect(sweTestSpec({ ...base, repo: 'django/django', version: '4.2', testPatch: patch('tests/a/tests.py') }).env).toEqual({});

    const sympy = sweTestSpec({ ...base, repo: 'sympy/sympy', version: '1.12', testPatch: patch('sympy/core/tests/test_basic.py') });
    expect(sympy.command).toBe("PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose sympy/core/tests/test_basic.py");
    expect(sympy.parser).toBe('sympy');
    expect(sympy.runnerFiles).toContain('sympy/testing/runtests.py');
    expect(sympy.origin).toBe("the SWE-bench harness's spec for sympy/sympy 1.12");

    expect(sweTestSpec({ ...base, repo: 'astropy/astropy', version: '1.3', testPatch: patch('astropy/t/test_a.py') }).command).toBe(
      'pytest -rA -vv -o console_output_style=classic --tb=no astropy/t/test_a.py',
    );
    expect(sweTestSpec({ ...base, repo: 'astropy/astropy', version: '5.1', testPatch: patch('astropy/t/test_a.py') }).parser).toBe('pytest-v2');
    expect(sweTestSpec({ ...base, repo: 'sphinx-doc/sphinx', version: '7.1', testPatch: patch('tests/test_x.py') }).command).toBe(
      'tox --current-env -epy39 -v -- tests/test_x.py',
    );
    expect(sweTestSpec({ ...base, repo: 'psf/requests', version: '2.4', testPatch: patch('test_requests.py') }).parser).toBe('pytest-options');
  });

  it('leaves data files out of the test files, and quotes names a shell would split', () => {
    const spec = sweTestSpec({
      ...base,
      repo: 'pallets/flask',
      version: '2.0',
      testPatch: patch('tests/test_a.py') + patch('docs/notes.txt') + patch("tests/it's.py"),
    });
    expect(spec.command).toBe('pytest -rA tests/test_a.py "tests/it\'s.py"');
  });

  it("prefers the task's own spec, and says when a repository has none", () => {
    const own = sweTestSpec({ ...base, testPatch: patch('tests/a.py'), testSpec: { testCmd: 'make check', parser: 'pytest-v2', origin: 'the row' } });
    expect(own).toMatchObject({ command: 'make check tests/a.py', parser: 'pytest-v2', origin: 'the row', given: true });
    const unknown = sweTestSpec({ ...base, testPatch: patch('tests/a.py') });
    expect(unknown).toMatchObject({ command: 'pytest -rA tests/a.py', parser: 'pytest', given: false });
    expect(unknown.origin).toMatch(/^no test spec for o\/p: `pytest -rA` assumed/);
    const newer = sweTestSpec({ ...base, repo: 'Sympy/Sympy', version: '9.9', testPatch: patch('a/tests/test_b.py') });
    expect(newer.given).toBe(true);
    expect(newer.origin).toMatch(/version 9\.9 is not in its table/);
  });

  it('falls back to the graded tests when the test patch touches only data files', () => {
    const data = patch('tests/data.txt');
    const django = sweTestSpec({
      ...base,
      repo: 'django/django',
      testPatch: data,
      failToPass: ['test_x (auth_tests.test_validators.UserTests)', 'test_y (auth_tests.test_validators.UserTests.test_y)'],
    });
    expect(django.command).toBe('./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 auth_tests.test_validators');
    const pytest = sweTestSpec({ ...base, testPatch: data, failToPass: ['tests/test_a.py::test_x[1]'], passToPass: ['tests/test_b.py::K::test_y'] });
    expect(pytest.command).toBe('pytest -rA tests/test_a.py tests/test_b.py');
  });
});

describe('SWE-bench Verified and Lite', () => {
  it.for(['verified.jsonl', 'lite-test.jsonl'])(
    '%s: every row gets a command from the harness table for its exact version, and every graded test file is run',
    (name, ctx) => {
      const path = requireSharedData(ctx, `swebench/${name}`);
      const tasks = readJsonl(path).map((row, i) => {
        const r = sweRowToTask(row, { source: name });
        if (!r.ok) throw new Error(`row ${i + 1}: ${JSON.stringify(r.problems)}`);
        return r.task as SweTask;
      });
      const coverage = new Map<string, { rows: number; exact: number }>();
      for (const t of tasks) {
        const spec = sweTestSpec(t);
        const c = coverage.get(t.repo) ?? { rows: 0, exact: 0 };
        c.rows++;
        if (spec.given && HARNESS_SPECS[t.repo]!.versions.includes(t.version!)) c.exact++;
        coverage.set(t.repo, c);
        expect(spec.given, t.id).toBe(true);
        expect(spec.command.length, t.id).toBeGreaterThan(0);
        if (spec.parser !== 'django' && spec.parser !== 'sympy') {
          // Ids without a folder (`test_x.py::test_y`) name files the repository's own tests write and run.
          const ids = [...t.failToPass, ...t.passToPass].filter((i) => i.split('::')[0]!.includes('/'));
          for (const id of ids) expect(spec.command, `${t.id} ${id}`).toContain(id.split('::')[0]);
        }
      }
      const lines = [...coverage].sort().map(([repo, c]) => `  ${repo.padEnd(28)} ${String(c.exact).padStart(4)}/${c.rows}`);
      console.log(`${name}: rows with a spec for their exact repository and version\n${lines.join('\n')}`);
      for (const [repo, c] of coverage) expect(c.exact, repo).toBe(c.rows);
      expect(tasks.length).toBeGreaterThanOrEqual(300);
    },
  );
});
