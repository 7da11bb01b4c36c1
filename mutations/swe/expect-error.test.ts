import { describe, expect, it } from 'vitest';
import { withPythonTree, type Node } from '../../python/parser.js';
import { assertsItself } from './assertion-helper.js';
import { mutateSweTestPatch } from './mutate.js';

/** A patch that creates `tests/test_x.py` holding `source`. */
function newFilePatch(source: string): string {
  const lines = source.replace(/\n$/, '').split('\n');
  return [
    'diff --git a/tests/test_x.py b/tests/test_x.py',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/tests/test_x.py',
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    '',
  ].join('\n');
}

const mutate = (source: string, test: string, type: 'oneoff' | 'conflicting' = 'oneoff') =>
  mutateSweTestPatch({ id: 'x', testPatch: newFilePatch(source), failToPass: [`tests/test_x.py::${test}`] }, type, 0);

/** Why each statement of the function named `fn` asserts (undefined: it only runs code). */
async function reasons(source: string, fn: string): Promise<(string | undefined)[]> {
  return withPythonTree(source, (tree) => {
    const def = tree.rootNode.descendantsOfType('function_definition').find((d) => d?.childForFieldName('name')?.text === fn) as Node;
    const body = def.childForFieldName('body')!;
    return body.namedChildren.filter((s): s is Node => !!s && s.type !== 'comment').map((s) => assertsItself(s, def));
  });
}

describe('what expect-error may wrap', () => {
  it('tells checks from runs of the code: asserts, helper names, functions whose body asserts', async () => {
    const source = [
      'def check_row(r):',
      '    assert r',
      '',
      'def build(r):',
      '    return [r]',
      '',
      'class TestX:',
      '    def run_case(self, n):',
      '        self.assertTrue(compute(n))',
      '',
      '    def make(self, n):',
      '        return compute(n)',
      '',
      '    def test_it(self):',
      '        assert compute(1)',
      '        self.assertOptimizesTo([1], [])',
      '        verify_all()',
      '        _check(2)',
      '        self.run_case(3)',
      '        helper = self.make(4)',
      '        build(5)',
      '        other.run_case(6)',
      '        with self.assertRaises(ValueError):',
      '            compute(-1)',
      '        compute(7)',
      '',
    ].join('\n');
    expect(await reasons(source, 'test_it')).toEqual([
      'is an assert statement',
      'calls the assertion helper `assertOptimizesTo`',
      'calls the assertion helper `verify_all`',
      'calls the assertion helper `_check`',
      'calls `run_case`, whose body asserts',
      undefined,
      undefined,
      // Another object's method of the same name is not the test class's.
      undefined,
      'calls the assertion helper `assertRaises`',
      undefined,
    ]);
  });

  it('never wraps a call to an assertion helper: a test that only calls one gets no variant', async () => {
    // As in a Django test whose one statement is `self.assertOptimizesTo(...)`.
    const source = [
      'class OptimizerTests(SimpleTestCase):',
      '    def test_add_remove_index(self):',
      '        self.assertOptimizesTo(',
      '            [AddIndex("Pony"), RemoveIndex("Pony")],',
      '            [],',
      '        )',
      '',
    ].join('\n');
    for (const type of ['oneoff', 'conflicting'] as const) {
      // Its expected argument may change (`helper-expected`); the call is never wrapped.
      const changed = await mutate(source, 'OptimizerTests::test_add_remove_index', type);
      expect(changed.ok ? changed.record.strategy : changed.reason).toMatch(/helper-expected/);
      // An expected value held by a name leaves nothing to change.
      const m = await mutate(source.replace('[],', 'self.expected,'), 'OptimizerTests::test_add_remove_index', type);
      expect(m.ok).toBe(false);
      if (!m.ok) expect(m.reason).toMatch(/its last statement calls the assertion helper `assertOptimizesTo`\)$/);
    }
  });

  it('never wraps a method of the test class whose body asserts', async () => {
    const source = [
      'class TestRows:',
      '    def expect_rows(self, n):',
      '        self.assertTrue(n)',
      '',
      '    def test_rows(self):',
      '        self.expect_rows(load())',
      '',
    ].join('\n');
    const m = await mutate(source, 'TestRows::test_rows');
    expect(m.ok).toBe(false);
    if (!m.ok) expect(m.reason).toMatch(/calls `expect_rows`, whose body asserts\)$/);
  });

  it('wraps the last call of the code under test, passing over the checks after it', async () => {
    const source = ['def verify_output(out):', '    assert out', '', 'def test_run():', '    out = compute(1)', '    verify_output(out)', ''].join(
      '\n',
    );
    const m = await mutate(source, 'test_run');
    if (!m.ok) throw new Error(m.reason);
    expect(m.record).toMatchObject({ strategy: 'expect-error', before: '    out = compute(1)', line: 5 });
    expect(m.testPatch).toContain('+    try:\n+        out = compute(1)\n+    except Exception:\n');
    expect(m.testPatch).toContain('+    verify_output(out)\n');
  });
});

describe('arguments of a call that is not an expectation', () => {
  it('are never changed: an object the expectation reads into is an input to the code', async () => {
    // As in a Django test comparing `user.username` with `created_user.username`.
    const source = [
      'def test_user():',
      '    created = make_user("tester", "test@example.com")',
      '    user = get_user()',
      '    assert user.username == created.username',
      '',
    ].join('\n');
    for (const type of ['oneoff', 'conflicting'] as const) {
      const m = await mutate(source, 'test_user', type);
      if (!m.ok) throw new Error(m.reason);
      expect(m.record.strategy).not.toMatch(/call-arg|expected-variable/);
      expect(m.record.after).not.toMatch(/make_user\("tester", "(?!test@example\.com")/);
    }
  });

  it('change where the call builds the expected value itself', async () => {
    const source = ['def test_total():', '    expected = Decimal("1.50")', '    assert total() == expected', ''].join('\n');
    const m = await mutate(source, 'test_total');
    if (!m.ok) throw new Error(m.reason);
    expect(m.record.strategy).toMatch(/^expected-variable\/call-arg\//);
    expect(m.record.before).toBe('    expected = Decimal("1.50")'.trim());
  });
});
