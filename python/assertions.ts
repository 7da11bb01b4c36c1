import { isPureLiteral, literalValue, parseFloatToken, parseIntToken, unwrapParens } from './literal.js';
import { kids, type Node } from './parser.js';
import { span, type ComparisonKind, type FoundAssertion, type Span, type SubjectTest } from './assertion-types.js';
import {
  calleeName,
  CLOSE_METHODS,
  lineOf,
  callArgs,
  numberOf,
  expectedOf,
  orient,
  bothComputed,
  ORDER_OPPOSITE,
  LINE_MATCHERS,
  RAISES,
} from './assertion-reading.js';
import { assertFromCall } from './assertion-calls.js';

export { span, type ComparisonKind, type FoundAssertion, type Span, type SubjectTest, type Tolerance } from './assertion-types.js';
export { calleeName } from './assertion-reading.js';

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
