import { describe, expect, it } from 'vitest';
import { findAssertions, nonLiteral } from './assertions.js';
import { firstSyntaxError, withPythonTree } from './parser.js';

/** The assertions of the first function in `source`, as plain data. */
async function found(source: string, options: { rightIsExpected?: boolean; orderComparisons?: boolean } = {}) {
  return withPythonTree(source, (tree) => {
    const fn = tree.rootNode.descendantsOfType('function_definition')[0]!;
    return findAssertions(fn, nonLiteral, options).map((a) => ({
      line: a.line,
      style: a.style,
      method: a.method,
      comparison: a.comparison,
      subject: a.subject.text,
      expected: a.expected?.span.text,
      nested: a.nested,
      negation: a.negation?.text,
    }));
  });
}

describe('the assertions of a test function', () => {
  it('reads assert statements, unittest methods and helper functions, and which side is under test', async () => {
    const source = [
      'def test_it(self):',
      '    assert f(1) == 2',
      '    assert 3 != g(x)',
      '    self.assertEqual(h(), [1, 2])',
      '    self.assertIsNone(k())',
      '    assert_equal(m(), "a")',
      '    assert n()',
      '',
    ].join('\n');
    expect(await found(source)).toEqual([
      { line: 2, style: 'assert', method: undefined, comparison: 'eq', subject: 'f(1)', expected: '2', nested: false, negation: expect.any(String) },
      { line: 3, style: 'assert', method: undefined, comparison: 'ne', subject: 'g(x)', expected: '3', nested: false, negation: expect.any(String) },
      {
        line: 4,
        style: 'method',
        method: 'assertEqual',
        comparison: 'eq',
        subject: 'h()',
        expected: '[1, 2]',
        nested: false,
        negation: expect.any(String),
      },
      // None is implied by the method: no text of its own.
      {
        line: 5,
        style: 'method',
        method: 'assertIsNone',
        comparison: 'is',
        subject: 'k()',
        expected: '',
        nested: false,
        negation: 'assertIsNotNone',
      },
      // A helper's opposite is unknown.
      { line: 6, style: 'function', method: 'assert_equal', comparison: 'eq', subject: 'm()', expected: '"a"', nested: false, negation: undefined },
      {
        line: 7,
        style: 'assert',
        method: undefined,
        comparison: 'truthy',
        subject: 'n()',
        expected: undefined,
        nested: false,
        negation: expect.any(String),
      },
    ]);
  });

  it('reads tolerances: pytest.approx and math.isclose', async () => {
    const source = ['def test_close():', '    assert f() == pytest.approx(0.5)', '    assert math.isclose(g(), 1.5)', ''].join('\n');
    // `pytest.approx(0.5)` is a call like `f()`: which side is expected is told by the side, as the engine asks.
    expect((await found(source, { rightIsExpected: true })).map((a) => [a.comparison, a.subject, a.expected])).toEqual([
      ['approx', 'f()', '0.5'],
      ['isclose', 'g()', '1.5'],
    ]);
  });

  it('marks assertions inside loops and with blocks as nested, and leaves nested functions alone', async () => {
    const source = [
      'def test_loop():',
      '    for x in range(3):',
      '        assert f(x) == 1',
      '    def helper():',
      '        assert g() == 1',
      '    assert h() == 2',
      '',
    ].join('\n');
    expect((await found(source)).map((a) => [a.line, a.nested])).toEqual([
      [3, true],
      [6, false],
    ]);
  });

  it('takes the right side as expected when both are computed only when asked, and order comparisons on request', async () => {
    const source = ['def test_both():', '    assert f(a) == g(b)', '    assert f(a) < 3', ''].join('\n');
    expect(await found(source)).toEqual([]);
    expect((await found(source, { rightIsExpected: true, orderComparisons: true })).map((a) => [a.comparison, a.subject, a.expected])).toEqual([
      ['eq', 'f(a)', 'g(b)'],
      ['order', 'f(a)', undefined],
    ]);
  });

  it('says where source fails to parse', async () => {
    expect(await withPythonTree('def f(:\n    pass\n', (tree) => firstSyntaxError(tree.rootNode))).toMatch(/^line 1: /);
    expect(await withPythonTree('def f():\n    pass\n', (tree) => firstSyntaxError(tree.rootNode))).toBeUndefined();
  });
});
