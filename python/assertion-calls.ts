/** Assertions spelled as calls: `self.assertEqual(a, b)`, `pytest.raises(E, match=...)`, `np.isclose(a, b)`, a project's own helpers. */
import { isPureLiteral, literalValue, unwrapParens } from './literal.js';
import type { Node } from './parser.js';
import { EQUALITY_OPPOSITE, ORDER_METHODS, REGEX_METHODS } from './unittest-vocabulary.js';
import { span, type ComparisonKind, type FoundAssertion, type Span, type SubjectTest, type Tolerance } from './assertion-types.js';
import {
  calleeName,
  EQ_METHODS,
  NE_METHODS,
  CLOSE_METHODS,
  UNARY,
  BINARY_OPPOSITE,
  type Args,
  callArgs,
  numberOf,
  expectedOf,
  orient,
  literalDisplay,
  LINE_MATCHERS,
  RAISES,
  NOT_A_COMPARISON,
} from './assertion-reading.js';

export function assertFromCall(call: Node, isSubject: SubjectTest, style: 'assert' | 'method' | 'function'): Partial<FoundAssertion> | undefined {
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
    const tolerance = closeTolerance(name, fn, args, style);
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
  return projectHelper(name, a, args, isSubject);
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

/** The tolerance of `assertAlmostEqual`, `isclose`, `assert_allclose` and their kin, from their arguments and defaults. */
function closeTolerance(name: string, fn: Node, args: Args, style: 'assert' | 'method' | 'function'): Tolerance {
  if (name === 'assertAlmostEqual' || name === 'assertAlmostEquals' || name === 'assert_almost_equal' || name === 'assert_array_almost_equal') {
    const delta = numberOf(args.keywords.get('delta'));
    const places =
      numberOf(args.keywords.get('places') ?? args.keywords.get('decimal') ?? (style === 'method' ? args.positional[2] : undefined)) ??
      (name.startsWith('assert_') ? 6 : 7);
    return { rel: 0, abs: delta ?? 1.5 * 10 ** -places };
  } else if (name === 'isclose') {
    const pkg = fn.type === 'attribute' ? fn.childForFieldName('object')?.text : undefined;
    const numpy = pkg === 'np' || pkg === 'numpy';
    return {
      rel: numberOf(args.keywords.get(numpy ? 'rtol' : 'rel_tol')) ?? (numpy ? 1e-5 : 1e-9),
      abs: numberOf(args.keywords.get(numpy ? 'atol' : 'abs_tol')) ?? (numpy ? 1e-8 : 0),
    };
  } else {
    // numpy/astropy assert_allclose and allclose
    const defaults = name === 'allclose' ? { rel: 1e-5, abs: 1e-8 } : { rel: 1e-7, abs: 0 };
    return {
      rel: numberOf(args.keywords.get('rtol') ?? args.positional[2]) ?? defaults.rel,
      abs: numberOf(args.keywords.get('atol') ?? args.positional[3]) ?? defaults.abs,
    };
  }
}

/**
 * A project's own assertion helper (`self.assertNumberMigrations(changes, 'app', 1)`,
 * `assert_node(tree, [...])`): the tested value comes first, a literal expectation last.
 */
function projectHelper(name: string, a: Node, args: Args, isSubject: SubjectTest): Partial<FoundAssertion> | undefined {
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
