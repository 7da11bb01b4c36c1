import { isPureLiteral, literalValue, parseFloatToken, parseIntToken, unwrapParens, type LiteralKind, type PyValue } from './literal.js';
import { kids, type Node } from './parser.js';
import { EQUALITY_OPPOSITE, ORDER_METHODS, REGEX_METHODS } from './unittest-vocabulary.js';

/** A slice of the parsed source, in UTF-16 offsets (so `source.slice(start, end) === text`). */
export interface Span {
  start: number;
  end: number;
  text: string;
}

/** How an assertion compares the value under test with what it expects. */
export type ComparisonKind =
  | 'eq' // ==, assertEqual and friends
  | 'ne' // !=, assertNotEqual
  | 'is' // is, assertIs, assertIsNone (expected None)
  | 'is-not' // is not, assertIsNot, assertIsNotNone
  | 'in' // in, assertIn, assertContains (expected is the needle)
  | 'not-in'
  | 'truthy' // bare `assert f(x)`, assertTrue
  | 'falsy' // `assert not f(x)`, assertFalse
  | 'isclose' // math.isclose, assertAlmostEqual, assert_allclose: equal within a tolerance
  | 'approx' // == pytest.approx(expected, ...)
  | 'abs-diff' // abs(f(x) - expected) < tol
  | 'order'; // a < b, a <= b, a > b, a >= b: no expected value, only its negation (read on request)

/** The tolerance a comparison allows: |a - b| <= max(rel * max(|a|, |b|), abs). */
export interface Tolerance {
  rel: number;
  abs: number;
}

export interface FoundAssertion {
  /** 1-based lines of the whole statement in the parsed source. */
  line: number;
  endLine: number;
  statement: Span;
  /** `assert` statement, `self.assertX(...)` method, or a helper function such as `assert_equal(...)`. */
  style: 'assert' | 'method' | 'function';
  /** The method or helper name, when the style is not a bare `assert`. */
  method?: string;
  comparison: ComparisonKind;
  /** The side under test, e.g. `candidate(3, 4)` or `sorted(candidate(x))`. */
  subject: Span;
  /** The expected side, for comparisons that have one. */
  expected?: { span: Span; kind: LiteralKind; value: PyValue };
  tolerance?: Tolerance;
  /** Replacing `negation.span` by `negation.text` turns the assertion into its opposite. */
  negation?: { span: Span; text: string };
  /** Inside a loop, `if`, `with` or `try` of the function rather than directly in its body. */
  nested: boolean;
  /** Index of the function's top-level statement that holds this assertion. */
  topIndex: number;
}

/** Decides which side of a comparison is the value under test. */
export type SubjectTest = (node: Node) => boolean;

export function span(node: Node): Span {
  return { start: node.startIndex, end: node.endIndex, text: node.text };
}

const EQ_METHODS = new Set([
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
const NE_METHODS = new Set(['assertNotEqual', 'assertNotEquals', 'assert_not_equal', 'assertHTMLNotEqual']);
const CLOSE_METHODS = new Set([
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
const UNARY: Record<string, { comparison: ComparisonKind; opposite: string }> = {
  assertTrue: { comparison: 'truthy', opposite: 'assertFalse' },
  assert_: { comparison: 'truthy', opposite: 'assertFalse' },
  failUnless: { comparison: 'truthy', opposite: 'assertFalse' },
  assertFalse: { comparison: 'falsy', opposite: 'assertTrue' },
  failIf: { comparison: 'falsy', opposite: 'assertTrue' },
  assertIsNone: { comparison: 'is', opposite: 'assertIsNotNone' },
  assertIsNotNone: { comparison: 'is-not', opposite: 'assertIsNone' },
};
/** Two-argument methods whose opposite is another method name. */
const BINARY_OPPOSITE: Record<string, string> = {
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

function lineOf(node: Node): number {
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

interface Args {
  positional: Node[];
  keywords: Map<string, Node>;
}

function callArgs(call: Node): Args | undefined {
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
function numberOf(node: Node | undefined): number | undefined {
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

function expectedOf(node: Node): FoundAssertion['expected'] {
  const n = unwrapParens(node);
  const value = literalValue(n);
  return { span: span(n), kind: value.kind, value };
}

/** Orders the two sides of an equality: which one is tested, which one is expected. */
function orient(a: Node, b: Node, isSubject: SubjectTest): { subject: Node; expected: Node } | undefined {
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

const DISPLAYS = new Set(['list', 'tuple', 'set', 'dictionary']);

function isDisplay(n: Node): boolean {
  return DISPLAYS.has(unwrapParens(n).type);
}

/** A list or tuple display holding at least one literal item (directly or in a nested display). */
function literalDisplay(n: Node): boolean {
  const u = unwrapParens(n);
  return (
    (u.type === 'list' || u.type === 'tuple') && kids(u).some((c) => c.type !== 'comment' && (isPureLiteral(literalValue(c)) || literalDisplay(c)))
  );
}

const EXPECTED_NAMES = new Set([
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

function namedExpected(n: Node): boolean {
  const u = unwrapParens(n);
  return u.type === 'identifier' && (EXPECTED_NAMES.has(u.text) || u.text.startsWith('expected_') || u.text.startsWith('expected'));
}

/** Set while reading tests whose expectations may be expressions rather than literals. */
const bothComputed = { rightIsExpected: false, order: false };

/** The ordering that holds exactly when the given one does not (for any sane order: no value is both `<=` and `>` another). */
const ORDER_OPPOSITE: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' };

/** `abs(f(x) - expected) < tol`. */
function absDiffOf(left: Node, right: Node, isSubject: SubjectTest): Partial<FoundAssertion> | undefined {
  const abs = unwrapParens(left);
  if (abs.type !== 'call' || calleeName(abs) !== 'abs') return undefined;
  const args = callArgs(abs);
  const diff = args?.positional.length === 1 ? unwrapParens(args.positional[0]!) : undefined;
  if (diff?.type !== 'binary_operator' || kids(diff, false)[1]?.text !== '-') return undefined;
  const o = orient(diff.childForFieldName('left')!, diff.childForFieldName('right')!, isSubject);
  const tol = numberOf(right);
  if (!o || tol === undefined) return undefined;
  return { comparison: 'abs-diff', subject: span(o.subject), expected: expectedOf(o.expected), tolerance: { rel: 0, abs: tol } };
}

function assertFromComparison(cmp: Node, isSubject: SubjectTest): Partial<FoundAssertion> | undefined {
  const parts = kids(cmp, false);
  // Only the plain two-operand form: `a OP b`; a chain like `a == b == c` is not touched.
  const operands = parts.filter((p) => p.isNamed && p.type !== 'comment' && p.type !== 'line_continuation');
  const ops = parts.filter((p) => !p.isNamed);
  if (operands.length !== 2) return undefined;
  const op = ops.map((o) => o.text).join(' ');
  const [left, right] = operands as [Node, Node];
  const opSpan: Span = {
    start: ops[0]!.startIndex,
    end: ops[ops.length - 1]!.endIndex,
    text: cmp.text.slice(ops[0]!.startIndex - cmp.startIndex, ops[ops.length - 1]!.endIndex - cmp.startIndex),
  };
  const opposite: Record<string, string> = { '==': '!=', '!=': '==', is: 'is not', 'is not': 'is', in: 'not in', 'not in': 'in' };
  const kind: Record<string, ComparisonKind> = { '==': 'eq', '!=': 'ne', is: 'is', 'is not': 'is-not', in: 'in', 'not in': 'not-in' };
  const absDiff = op === '<' || op === '<=' ? absDiffOf(left, right, isSubject) : undefined;
  if (absDiff) return absDiff;
  if (ORDER_OPPOSITE[op] && bothComputed.order) {
    // `assert ax.get_xlim()[0] <= minx`: no expected value to change, but its negation contradicts it.
    if (!isSubject(left) && !isSubject(right)) return undefined;
    return { comparison: 'order', subject: span(isSubject(left) ? left : right), negation: { span: opSpan, text: ORDER_OPPOSITE[op]! } };
  }
  const comparison = kind[op];
  if (!comparison) return undefined;
  // For `in`, the needle is the expected value and the haystack is tested: `"x" in f(y)`.
  const o = comparison === 'in' || comparison === 'not-in' ? { subject: right, expected: left } : orient(left, right, isSubject);
  if (!o || !isSubject(o.subject) || (isSubject(o.expected) && !bothComputed.rightIsExpected)) return undefined;
  const found: Partial<FoundAssertion> = {
    comparison,
    subject: span(o.subject),
    negation: { span: opSpan, text: opposite[op]! },
  };
  const exp = unwrapParens(o.expected);
  if (comparison === 'eq' && exp.type === 'call' && calleeName(exp) === 'approx') {
    const args = callArgs(exp);
    const inner = args?.positional[0];
    if (!args || !inner) return undefined;
    found.comparison = 'approx';
    found.expected = expectedOf(inner);
    found.tolerance = { rel: numberOf(args.keywords.get('rel')) ?? 1e-6, abs: numberOf(args.keywords.get('abs')) ?? 1e-12 };
    return found;
  }
  found.expected = expectedOf(o.expected);
  return found;
}

function assertFromCall(call: Node, isSubject: SubjectTest, style: 'assert' | 'method' | 'function'): Partial<FoundAssertion> | undefined {
  const name = calleeName(call);
  const args = callArgs(call);
  if (!name || !args) return undefined;
  const fn = call.childForFieldName('function')!;
  const nameNode = fn.type === 'attribute' ? fn.childForFieldName('attribute')! : fn;
  const rename = (to: string) => ({ span: span(nameNode), text: to });
  const [a, b] = args.positional;
  const unary = UNARY[name];
  if (unary && a && style !== 'assert') {
    if (!isSubject(a)) return undefined;
    const found: Partial<FoundAssertion> = { method: name, comparison: unary.comparison, subject: span(a), negation: rename(unary.opposite) };
    if (name === 'assertIsNone' || name === 'assertIsNotNone')
      found.expected = { span: { start: a.endIndex, end: a.endIndex, text: '' }, kind: 'none', value: { kind: 'none' } };
    return found;
  }
  const raises = RAISES[name];
  if (raises && a) {
    const message = raises.message === 'match' ? args.keywords.get('match') : args.positional[raises.message];
    // A message held in a variable still names the expectation (its assignment can change).
    if (message) return { method: name, comparison: 'eq', subject: span(a), expected: expectedOf(message) };
    // No message: the exception type itself is the expectation (`pytest.raises(ValueError)`).
    if (!message && (name === 'raises' || name === 'assertRaises') && unwrapParens(a).type === 'identifier')
      return { method: name, comparison: 'eq', subject: span(call), expected: expectedOf(a) };
    return undefined;
  }
  // pytest's own result checks: `result.stdout.fnmatch_lines([...])`, `result.assert_outcomes(passed=1)`.
  // The patterns may sit in a variable or a parameter (`fnmatch_lines(expected)`), whose value is then the expectation.
  if (LINE_MATCHERS.has(name) && a && (!isSubject(a) || unwrapParens(a).type === 'identifier'))
    return { method: name, comparison: 'eq', subject: span(call), expected: expectedOf(a) };
  // `result.assert_outcomes(passed=1)`, `reprec.assertoutcome(passed=2, failed=0)`: exact counts.
  if (!a && (name.startsWith('assert_') || name === 'assertoutcome') && args.keywords.size > 0) {
    const literal = [...args.keywords.values()].filter((v) => isPureLiteral(literalValue(v)));
    const last = literal[literal.length - 1];
    return last ? { method: name, comparison: 'eq', subject: span(call), expected: expectedOf(last) } : undefined;
  }
  const own = djangoKind(name, args, isSubject, rename);
  if (own !== undefined) return own ?? undefined;
  if (!a || !b) return undefined;
  if (CLOSE_METHODS.has(name)) {
    const o = orient(a, b, isSubject);
    if (!o) return undefined;
    let tolerance: Tolerance;
    if (name === 'assertAlmostEqual' || name === 'assertAlmostEquals' || name === 'assert_almost_equal' || name === 'assert_array_almost_equal') {
      const delta = numberOf(args.keywords.get('delta'));
      const places =
        numberOf(args.keywords.get('places') ?? args.keywords.get('decimal') ?? (style === 'method' ? args.positional[2] : undefined)) ??
        (name.startsWith('assert_') ? 6 : 7);
      tolerance = { rel: 0, abs: delta ?? 1.5 * 10 ** -places };
    } else if (name === 'isclose') {
      const pkg = fn.type === 'attribute' ? fn.childForFieldName('object')?.text : undefined;
      const numpy = pkg === 'np' || pkg === 'numpy';
      tolerance = {
        rel: numberOf(args.keywords.get(numpy ? 'rtol' : 'rel_tol')) ?? (numpy ? 1e-5 : 1e-9),
        abs: numberOf(args.keywords.get(numpy ? 'atol' : 'abs_tol')) ?? (numpy ? 1e-8 : 0),
      };
    } else {
      // numpy/astropy assert_allclose and allclose
      const defaults = name === 'allclose' ? { rel: 1e-5, abs: 1e-8 } : { rel: 1e-7, abs: 0 };
      tolerance = {
        rel: numberOf(args.keywords.get('rtol') ?? args.positional[2]) ?? defaults.rel,
        abs: numberOf(args.keywords.get('atol') ?? args.positional[3]) ?? defaults.abs,
      };
    }
    return { method: name, comparison: 'isclose', subject: span(o.subject), expected: expectedOf(o.expected), tolerance };
  }
  if (style === 'assert') return undefined;
  if (EQ_METHODS.has(name) || NE_METHODS.has(name)) {
    const o = orient(a, b, isSubject);
    if (!o) return undefined;
    const comparison: ComparisonKind = EQ_METHODS.has(name) ? 'eq' : 'ne';
    const opposite = EQUALITY_OPPOSITE[name];
    return {
      method: name,
      comparison,
      subject: span(o.subject),
      expected: expectedOf(o.expected),
      negation: opposite ? rename(opposite) : undefined,
    };
  }
  if (name in BINARY_OPPOSITE) {
    const inLike = name === 'assertIn' || name === 'assertNotIn' || name === 'assertContains' || name === 'assertNotContains';
    // assertIn(needle, haystack); assertContains(response, text)
    const o = inLike ? (name.includes('Contains') ? { subject: a, expected: b } : { subject: b, expected: a }) : orient(a, b, isSubject);
    if (!o || !isSubject(o.subject)) return undefined;
    const comparison: ComparisonKind =
      name === 'assertIs' || name === 'assertIsInstance'
        ? 'is'
        : name === 'assertIsNot' || name === 'assertNotIsInstance'
          ? 'is-not'
          : name.includes('Not')
            ? 'not-in'
            : 'in';
    return { method: name, comparison, subject: span(o.subject), expected: expectedOf(o.expected), negation: rename(BINARY_OPPOSITE[name]!) };
  }
  // A project's own assertion helper (`self.assertNumberMigrations(changes, 'app', 1)`,
  // `assert_node(tree, [...])`): the tested value comes first, a literal expectation last.
  if (/^assert[A-Z_]/.test(name) && !NOT_A_COMPARISON.has(name)) {
    const literalish = (n: Node) => {
      const value = literalValue(n);
      return value.kind !== 'expression' && (isPureLiteral(value) || value.kind === 'list' || value.kind === 'tuple' || value.kind === 'dict');
    };
    if (!isSubject(a)) return undefined;
    const last = args.positional[args.positional.length - 1]!;
    // `assert_node(doctree, ([pending_xref, "Tuple"], ...))`: a display mixing names and literals also spells the expectation.
    if (literalish(last) || (args.positional.length > 1 && literalDisplay(last)))
      return { method: name, comparison: 'eq', subject: span(a), expected: expectedOf(last) };
    // `assertRedirects(response, url, status_code=301)`: a literal keyword is the expectation then.
    const keyword = [...args.keywords.values()].filter(literalish).pop();
    return keyword ? { method: name, comparison: 'eq', subject: span(a), expected: expectedOf(keyword) } : undefined;
  }
  return undefined;
}

/**
 * Django's and unittest's assertions whose expectation is not simply their second argument:
 * `assertContains(r, text, count=2)` expects the count, `assertRedirects(r, url, …)` the URL,
 * `assertNumQueries(2, f)` the number, `assertGreater(a, b)` an order. Undefined for any other
 * method; null for one of these that cannot be read.
 */
function djangoKind(
  name: string,
  args: Args,
  isSubject: SubjectTest,
  rename: (to: string) => { span: Span; text: string },
): Partial<FoundAssertion> | null | undefined {
  const [a, b] = args.positional;
  if (name === 'assertContains') {
    const count = args.keywords.get('count') ?? args.positional[2];
    if (!a || !b) return null;
    if (count && unwrapParens(count).type !== 'none')
      return { method: name, comparison: 'eq', subject: span(a), expected: expectedOf(count), negation: rename('assertNotContains') };
    return undefined;
  }
  if (name === 'assertRedirects') {
    const url = args.keywords.get('expected_url') ?? b;
    return a && url && isSubject(a) ? { method: name, comparison: 'eq', subject: span(a), expected: expectedOf(url) } : null;
  }
  if (name === 'assertNumQueries') {
    // The function form, `assertNumQueries(2, func, *args)`; the `with` form is read with the statement.
    return a && b ? { method: name, comparison: 'eq', subject: span(b), expected: expectedOf(a) } : null;
  }
  const order = ORDER_METHODS[name];
  if (order)
    return a && b && (isSubject(a) || isSubject(b)) ? { method: name, comparison: 'order', subject: span(a), negation: rename(order) } : null;
  const regex = REGEX_METHODS[name];
  if (regex)
    return a && b
      ? { method: name, comparison: regex.comparison, subject: span(a), expected: expectedOf(b), negation: rename(regex.opposite) }
      : null;
  return undefined;
}

/** Methods that check output lines against patterns; the patterns are the expectation. */
const LINE_MATCHERS = new Set(['fnmatch_lines', 're_match_lines', 'fnmatch_lines_random', 're_match_lines_random']);

/** Assertions on a raised exception or warning, and which argument holds the expected message. */
const RAISES: Record<string, { message: number | 'match' }> = {
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
const NOT_A_COMPARISON = new Set([
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

/** `with self.assertRaisesMessage(E, 'msg'):`, `with pytest.raises(E, match='msg'):`, `with self.assertNumQueries(2):`. */
function assertFromWith(stmt: Node, isSubject: SubjectTest): Partial<FoundAssertion> | undefined {
  const clause = kids(stmt).find((c) => c.type === 'with_clause');
  const items = clause ? kids(clause).filter((c) => c.type === 'with_item') : [];
  // `with connection.schema_editor() as editor, self.assertNumQueries(0):` — the asserting item.
  const call = items
    .map((i) => i.childForFieldName('value'))
    .find((v): v is Node => !!v && v.type === 'call' && (RAISES[calleeName(v) ?? ''] !== undefined || calleeName(v) === 'assertNumQueries'));
  if (!call) return undefined;
  const name = calleeName(call);
  const args = callArgs(call);
  if (!name || !args) return undefined;
  if (name === 'assertNumQueries' && args.positional[0]) {
    return { method: name, comparison: 'eq', subject: span(call), expected: expectedOf(args.positional[0]) };
  }
  if (!RAISES[name] || !args.positional[0]) return undefined;
  const found = assertFromCall(call, isSubject, 'method');
  return found ? { ...found, style: call.childForFieldName('function')?.type === 'attribute' ? 'method' : 'function' } : undefined;
}

function assertionOf(stmt: Node, isSubject: SubjectTest): Partial<FoundAssertion> | undefined {
  if (stmt.type === 'assert_statement') {
    const tested = kids(stmt).filter((c) => c.type !== 'comment')[0];
    if (!tested) return undefined;
    const t = unwrapParens(tested);
    let found: Partial<FoundAssertion> | undefined;
    if (t.type === 'comparison_operator') found = assertFromComparison(t, isSubject);
    else if (t.type === 'not_operator') {
      const arg = t.childForFieldName('argument');
      if (arg && isSubject(arg) && unwrapParens(arg).type !== 'comparison_operator')
        found = {
          comparison: 'falsy',
          subject: span(arg),
          negation: {
            span: {
              start: t.startIndex,
              end: arg.startIndex,
              text: stmt.text.slice(t.startIndex - stmt.startIndex, arg.startIndex - stmt.startIndex),
            },
            text: '',
          },
        };
    } else if (t.type === 'call' && CLOSE_METHODS.has(calleeName(t) ?? '')) {
      found = assertFromCall(t, isSubject, 'assert');
    } else if (isSubject(t) && t.type !== 'boolean_operator') {
      found = { comparison: 'truthy', subject: span(t), negation: { span: { start: t.startIndex, end: t.startIndex, text: '' }, text: 'not ' } };
    }
    return found ? { ...found, style: 'assert' } : undefined;
  }
  if (stmt.type === 'expression_statement') {
    const call = kids(stmt)[0];
    if (call?.type !== 'call') return undefined;
    const fn = call.childForFieldName('function');
    const style = fn?.type === 'attribute' && fn.childForFieldName('object')?.text === 'self' ? 'method' : 'function';
    const name = calleeName(call) ?? '';
    if (style === 'function' && !name.startsWith('assert') && !RAISES[name] && !LINE_MATCHERS.has(name)) return undefined;
    const found = assertFromCall(call, isSubject, style);
    return found ? { ...found, style } : undefined;
  }
  return undefined;
}

const NESTING = new Set([
  'for_statement',
  'while_statement',
  'if_statement',
  'elif_clause',
  'else_clause',
  'with_statement',
  'try_statement',
  'except_clause',
  'finally_clause',
  'block',
  'with_clause',
]);

/**
 * Every assertion in a function's body (not in functions or classes nested in it), in source order.
 * `isSubject` tells which side of a comparison is the value under test; with `rightIsExpected`,
 * when both sides are computed the right (or second) one is taken as the expectation.
 */
export function findAssertions(
  fn: Node,
  isSubject: SubjectTest,
  options: { rightIsExpected?: boolean; orderComparisons?: boolean } = {},
): FoundAssertion[] {
  bothComputed.rightIsExpected = options.rightIsExpected ?? false;
  bothComputed.order = options.orderComparisons ?? false;
  try {
    return collect(fn, isSubject);
  } finally {
    bothComputed.rightIsExpected = false;
    bothComputed.order = false;
  }
}

function collect(fn: Node, isSubject: SubjectTest): FoundAssertion[] {
  const body = fn.childForFieldName('body');
  if (!body) return [];
  const out: FoundAssertion[] = [];
  const top = kids(body).filter((c) => c.type !== 'comment');
  top.forEach((stmt, topIndex) => {
    const visit = (node: Node, nested: boolean) => {
      if (node.type === 'with_statement') {
        const found = assertFromWith(node, isSubject);
        if (found?.comparison && found.subject) {
          out.push({ ...(found as FoundAssertion), line: lineOf(node), endLine: node.endPosition.row + 1, statement: span(node), nested, topIndex });
        }
      }
      if (node.type === 'assert_statement' || node.type === 'expression_statement') {
        const found = assertionOf(node, isSubject);
        if (found?.comparison && found.subject) {
          out.push({
            ...(found as FoundAssertion),
            line: lineOf(node),
            endLine: node.endPosition.row + 1,
            statement: span(node),
            nested,
            topIndex,
          });
        }
        return;
      }
      if (NESTING.has(node.type)) for (const c of kids(node)) visit(c, true);
    };
    visit(stmt, false);
  });
  return out;
}

/** Whether `node` contains (or is) a call of a function named `name`. */
export function callsFunction(node: Node, name: string): Node | undefined {
  const n = unwrapParens(node);
  if (n.type === 'call') {
    const fn = n.childForFieldName('function');
    if (fn?.type === 'identifier' && fn.text === name) return n;
  }
  for (const call of n.descendantsOfType('call')) {
    const fn = call?.childForFieldName('function');
    if (call && fn?.type === 'identifier' && fn.text === name) return call;
  }
  return undefined;
}

/** A value is under test when it is not a literal: `assertEqual(f(x), 3)` tests `f(x)`. */
export const nonLiteral: SubjectTest = (node) => !isPureLiteral(literalValue(node));

export { parseFloatToken, parseIntToken };
