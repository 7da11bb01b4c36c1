import type { FoundAssertion } from '../python/assertions.js';
import { unwrapParens } from '../python/literal.js';
import { kids, type Node } from '../python/parser.js';
import { COLLECTION_METHODS } from '../python/unittest-vocabulary.js';
import type { MutationType } from './outcome.js';
import { type AssertionPlan, nodeAt } from './plan.js';
import { type Edit, mutableLeaves } from './values.js';

/** Methods whose expected value changes in a way of its own rather than by the generic literal edits. */
export const OWN_KIND_METHODS: ReadonlySet<string> = new Set([
  ...COLLECTION_METHODS,
  'assertHTMLEqual',
  'assertJSONEqual',
  'assertRedirects',
  'assertContains',
]);

/** The string literal pieces of an expected value: one string, or the parts of an implicit concatenation. */
function stringParts(n: Node): Node[] | undefined {
  if (n.type === 'string') return [n];
  if (n.type === 'concatenated_string') return kids(n).filter((c) => c.type === 'string');
  return undefined;
}

function edge(s: Node, which: 'string_start' | 'string_end'): Node | undefined {
  return kids(s, false).find((c) => c.type === which);
}

/** `'<p>a</p>'` → `'<p>a</p>x'`: one more character of text, so the value differs however it is normalised. */
function appendText(n: Node, computedForm: (text: string) => string): Edit | undefined {
  const parts = stringParts(n);
  if (!parts) return { start: n.startIndex, end: n.endIndex, text: computedForm(n.text) };
  const end = edge(parts[parts.length - 1]!, 'string_end');
  return end ? { start: end.startIndex, end: end.startIndex, text: 'x' } : undefined;
}

/** `'{"a": 1}'` → `'[{"a": 1}]'`: the same JSON wrapped in an array, never equal to it. */
function wrapJson(n: Node): Edit[] | undefined {
  const parts = stringParts(n);
  const start = parts ? edge(parts[0]!, 'string_start') : undefined;
  const end = parts ? edge(parts[parts.length - 1]!, 'string_end') : undefined;
  if (!start || !end || /[bf]/i.test(start.text)) return undefined;
  return [
    { start: start.endIndex, end: start.endIndex, text: '[' },
    { start: end.startIndex, end: end.startIndex, text: ']' },
  ];
}

/** A collection with one item more than the expected one: lengths differ, whatever the order. */
function extendCollection(method: string, n: Node): Edit {
  const text = n.text;
  const wrapped =
    method === 'assertTupleEqual' ? `(*(${text}), None)` : method === 'assertSetEqual' ? `{*(${text}), object()}` : `[*(${text}), None]`;
  return { start: n.startIndex, end: n.endIndex, text: wrapped };
}

/** `assertContains(r, text)` → `assertContains(r, text, count=0)`: the text may not appear at all. */
function countZero(statement: Node): Edit | undefined {
  const call = statement.type === 'expression_statement' ? kids(statement)[0] : undefined;
  const args = call?.type === 'call' ? call.childForFieldName('arguments') : undefined;
  const items = args ? kids(args).filter((c) => c.type !== 'comment') : [];
  const last = items[items.length - 1];
  if (!last || items.some((c) => c.type === 'keyword_argument' && c.childForFieldName('name')?.text === 'count')) return undefined;
  return { start: last.endIndex, end: last.endIndex, text: ', count=0' };
}

/**
 * The change of an assertion's expected value in the assertion's own kind, so that the original
 * and the changed assertion cannot both hold: a collection one item longer, HTML with one more
 * character of text, JSON wrapped in an array, a redirect URL one character longer, a text that
 * must appear zero times. Undefined where the generic literal edits serve (or nothing does).
 */
export function ownKindPlan(root: Node, statement: Node, a: FoundAssertion, type: MutationType): AssertionPlan | undefined {
  const method = a.method;
  if (!method || !OWN_KIND_METHODS.has(method)) return undefined;
  if (method === 'assertContains') {
    if (a.comparison !== 'in' || type !== 'conflicting') return undefined;
    const edit = countZero(statement);
    return edit ? { edits: [edit], strategy: 'count-zero' } : undefined;
  }
  const e = a.expected;
  const n = e ? nodeAt(root, e.span.start, e.span.end) : undefined;
  if (!e || !n) return undefined;
  const value = unwrapParens(n);
  // A display of literals changes item by item (the generic edits); one with none, such as `[a, b]`, grows by an item.
  if (COLLECTION_METHODS.has(method))
    return mutableLeaves(n).length === 0 ? { edits: [extendCollection(method, n)], strategy: 'extend-collection' } : undefined;
  if (method === 'assertHTMLEqual') {
    const edit = appendText(value, (t) => `(${t}) + "x"`);
    return edit ? { edits: [edit], strategy: 'html-append-text' } : undefined;
  }
  if (method === 'assertRedirects') {
    const edit = appendText(value, (t) => `str(${t}) + "x"`);
    return edit ? { edits: [edit], strategy: 'url-append-char' } : undefined;
  }
  const edits = wrapJson(value);
  return edits ? { edits, strategy: 'json-wrap-array' } : undefined;
}
