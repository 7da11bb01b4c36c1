import type { LiteralKind, PyValue } from './literal.js';
import type { Node } from './parser.js';

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
