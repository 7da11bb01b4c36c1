/** What the assertion readers share: the method tables and how a call's arguments and expectation are read. */
import { isPureLiteral, literalValue, unwrapParens } from './literal.js';
import { kids, type Node } from './parser.js';
import { span, type ComparisonKind, type FoundAssertion, type SubjectTest } from './assertion-types.js';

export const EQ_METHODS = new Set([
  'assertEqual',
  'assertEquals',
  'failUnlessEqual',
  'assertListEqual',
  'assertTupleEqual',
  'assertDictEqual',
  'assertSetEqual',
  'assertSequenceEqual',
  'assertMultiLineEqual',
  'assertCountEqual',
  'assertItemsEqual',
  'assertQuerysetEqual',
  'assertQuerySetEqual',
  'assertHTMLEqual',
  'assertJSONEqual',
  'assertXMLEqual',
  'assertURLEqual',
  'assert_equal',
  'assert_identical',
  'assert_array_equal',
  'assert_frame_equal',
  'assert_series_equal',
  'assert_index_equal',
  'assert_quantity_equal',
  'assert_equal_',
]);
export const NE_METHODS = new Set(['assertNotEqual', 'assertNotEquals', 'assert_not_equal', 'assertHTMLNotEqual']);
export const CLOSE_METHODS = new Set([
  'assertAlmostEqual',
  'assertAlmostEquals',
  'assert_almost_equal',
  'assert_array_almost_equal',
  'assert_allclose',
  'assert_quantity_allclose',
  'isclose',
  'allclose',
]);
/** Methods with one argument that is judged alone, and their opposites. */
export const UNARY: Record<string, { comparison: ComparisonKind; opposite: string }> = {
  assertTrue: { comparison: 'truthy', opposite: 'assertFalse' },
  assert_: { comparison: 'truthy', opposite: 'assertFalse' },
  failUnless: { comparison: 'truthy', opposite: 'assertFalse' },
  assertFalse: { comparison: 'falsy', opposite: 'assertTrue' },
  failIf: { comparison: 'falsy', opposite: 'assertTrue' },
  assertIsNone: { comparison: 'is', opposite: 'assertIsNotNone' },
  assertIsNotNone: { comparison: 'is-not', opposite: 'assertIsNone' },
};
/** Two-argument methods whose opposite is another method name. */
export const BINARY_OPPOSITE: Record<string, string> = {
  assertIs: 'assertIsNot',
  assertIsNot: 'assertIs',
  assertIn: 'assertNotIn',
  assertNotIn: 'assertIn',
  assertContains: 'assertNotContains',
  assertNotContains: 'assertContains',
  assertNotEqual: 'assertEqual',
  assertNotEquals: 'assertEqual',
  assertIsInstance: 'assertNotIsInstance',
  assertNotIsInstance: 'assertIsInstance',
};

export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

/** The name a call is made through: `f` for `f(x)`, `assertEqual` for `self.assertEqual(x)`. */
export function calleeName(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  if (!fn) return undefined;
  if (fn.type === 'identifier') return fn.text;
  if (fn.type === 'attribute') return fn.childForFieldName('attribute')?.text;
  return undefined;
}

export interface Args {
  positional: Node[];
  keywords: Map<string, Node>;
}

export function callArgs(call: Node): Args | undefined {
  const list = call.childForFieldName('arguments');
  if (list?.type !== 'argument_list') return undefined;
  const positional: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const c of kids(list)) {
    if (c.type === 'comment') continue;
    if (c.type === 'keyword_argument') {
      const name = c.childForFieldName('name')?.text;
      const value = c.childForFieldName('value');
      if (name && value) keywords.set(name, value);
    } else if (c.type === 'list_splat' || c.type === 'dictionary_splat') {
      return undefined;
    } else {
      positional.push(c);
    }
  }
  return { positional, keywords };
}

/** A numeric literal's value, for tolerances. */
export function numberOf(node: Node | undefined): number | undefined {
  if (!node) return undefined;
  const v = literalValue(node);
  if (v.kind === 'float') return v.value;
  if (v.kind === 'int') return Number(v.value);
  if (node.type === 'binary_operator' && node.text.includes('**')) {
    // 10 ** -6 and the like
    const [l, r] = [node.childForFieldName('left'), node.childForFieldName('right')];
    const a = numberOf(l ?? undefined);
    const b = numberOf(r ?? undefined);
    if (a !== undefined && b !== undefined) return a ** b;
  }
  return undefined;
}

export function expectedOf(node: Node): FoundAssertion['expected'] {
  const n = unwrapParens(node);
  const value = literalValue(n);
  return { span: span(n), kind: value.kind, value };
}

/** Orders the two sides of an equality: which one is tested, which one is expected. */
export function orient(a: Node, b: Node, isSubject: SubjectTest): { subject: Node; expected: Node } | undefined {
  const sa = isSubject(a);
  const sb = isSubject(b);
  if (sa && !sb) return { subject: a, expected: b };
  if (sb && !sa) return { subject: b, expected: a };
  // Both sides computed (`f(x) == x**2 + 1`): by convention the second one is the expectation.
  if (sa && sb && bothComputed.rightIsExpected) {
    // `assert_identical(expected, actual)`: a side named as the expectation is one.
    if (namedExpected(a) && !namedExpected(b)) return { subject: b, expected: a };
    // `assert_allclose([w, h, 0], extents)`: a display holding literals is the expectation,
    // whichever side it is on (equality is symmetric).
    if (literalDisplay(a) && !isDisplay(b)) return { subject: b, expected: a };
    return { subject: a, expected: b };
  }
  return undefined;
}

export const DISPLAYS = new Set(['list', 'tuple', 'set', 'dictionary']);

export function isDisplay(n: Node): boolean {
  return DISPLAYS.has(unwrapParens(n).type);
}

/** A list or tuple display holding at least one literal item (directly or in a nested display). */
export function literalDisplay(n: Node): boolean {
  const u = unwrapParens(n);
  return (
    (u.type === 'list' || u.type === 'tuple') && kids(u).some((c) => c.type !== 'comment' && (isPureLiteral(literalValue(c)) || literalDisplay(c)))
  );
}

export const EXPECTED_NAMES = new Set([
  'expected',
  'expect',
  'exp',
  'desired',
  'expected_result',
  'expected_output',
  'want',
  'answer',
  'truth',
  'reference',
  'ref',
]);

export function namedExpected(n: Node): boolean {
  const u = unwrapParens(n);
  return u.type === 'identifier' && (EXPECTED_NAMES.has(u.text) || u.text.startsWith('expected_') || u.text.startsWith('expected'));
}

/** Set while reading tests whose expectations may be expressions rather than literals. */
export const bothComputed = { rightIsExpected: false, order: false };

/** The ordering that holds exactly when the given one does not (for any sane order: no value is both `<=` and `>` another). */
export const ORDER_OPPOSITE: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' };

/** Methods that check output lines against patterns; the patterns are the expectation. */
export const LINE_MATCHERS = new Set(['fnmatch_lines', 're_match_lines', 'fnmatch_lines_random', 're_match_lines_random']);

/** Assertions on a raised exception or warning, and which argument holds the expected message. */
export const RAISES: Record<string, { message: number | 'match' }> = {
  assertRaisesMessage: { message: 1 },
  assertWarnsMessage: { message: 1 },
  assertRaisesRegex: { message: 1 },
  assertRaisesRegexp: { message: 1 },
  assertWarnsRegex: { message: 1 },
  raises: { message: 'match' },
  assertRaises: { message: 'match' },
  warns: { message: 'match' },
};

/** Helpers whose last argument is not an expectation. */
export const NOT_A_COMPARISON = new Set([
  'assertRaises',
  'assertWarns',
  'assertLogs',
  'assertNoLogs',
  'assertTemplateUsed',
  'assertTemplateNotUsed',
  'assert_called_with',
  'assert_called_once_with',
  'assert_any_call',
  'assert_has_calls',
]);
