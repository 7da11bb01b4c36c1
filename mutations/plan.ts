import type { Parser } from 'web-tree-sitter';
import type { ComparisonKind, FoundAssertion, Span } from '../python/assertions.js';
import { isPureLiteral, literalValue, pyEqual } from '../python/literal.js';
import type { Node } from '../python/parser.js';
import { withTreeSync } from '../python/sync.js';
import type { Rng } from './rng.js';
import { applyEdits, changeLeaf, mutableLeaves, strategyName, type Edit } from './values.js';

/** Comparisons whose expected value can be changed to make the assertion impossible. */
export const MUTABLE_BY_VALUE: ReadonlySet<ComparisonKind> = new Set<ComparisonKind>(['eq', 'is', 'isclose', 'approx', 'abs-diff']);

/** The edits that change one assertion, and the name of how. */
export interface AssertionPlan {
  edits: Edit[];
  strategy: string;
}

/** A statement of the function body that holds the assertion, as placement needs it. */
export interface PlacedStatement {
  span: Span;
  line: number;
  endLine: number;
  /** Names the statement binds. */
  assigns: string[];
}

function endsAlone(statements: readonly PlacedStatement[], j: number): boolean {
  const next = statements[j + 1];
  return !next || next.line > statements[j]!.endLine;
}

/**
 * The later statements of the same body after which a duplicate of statement `i` may go, so that
 * at least one statement lies between the two: not after a statement that rebinds a name the
 * assertion reads, nor inside a line shared with another statement.
 */
export function laterSlots(statements: readonly PlacedStatement[], i: number, reads: ReadonlySet<string>): number[] {
  const out: number[] = [];
  for (let j = i + 1; j < statements.length; j++) {
    if (statements[j]!.assigns.some((n) => reads.has(n))) break;
    if (endsAlone(statements, j)) out.push(j);
  }
  return out;
}

/**
 * Where a contradicting duplicate of statement `i` goes: after one of its later slots (chosen by
 * the seed), else right after `i` itself when there is no room.
 */
export function planDuplicatePlacement(
  text: string,
  statements: readonly PlacedStatement[],
  i: number,
  reads: ReadonlySet<string>,
  rng: Rng,
): { offset: number; newlineBefore: boolean; adjacent: boolean } | undefined {
  const after = (j: number) => {
    const nl = text.indexOf('\n', statements[j]!.span.end);
    return nl === -1 ? { offset: text.length, newlineBefore: true } : { offset: nl + 1, newlineBefore: false };
  };
  const later = laterSlots(statements, i, reads);
  if (later.length > 0) return { ...after(rng.pick(later)), adjacent: false };
  if (statements[i] && endsAlone(statements, i)) return { ...after(i), adjacent: true };
  return undefined;
}

/** The node spanning exactly [start, end). */
export function nodeAt(root: Node, start: number, end: number): Node | undefined {
  let n = root.descendantForIndex(start, end);
  while (n && (n.startIndex !== start || n.endIndex !== end) && n.parent) n = n.parent;
  return n && n.startIndex === start && n.endIndex === end ? n : undefined;
}

/** Literal, non-None expected values of other assertions: what a `None` could plausibly have been. */
export function plausibleFrom(assertions: readonly FoundAssertion[]): string[] {
  const out = new Set<string>();
  for (const a of assertions) {
    const e = a.expected;
    if (e && e.kind !== 'none' && e.kind !== 'expression' && isPureLiteral(e.value) && e.span.text.length <= 80 && !e.span.text.includes('\n'))
      out.add(e.span.text);
  }
  return [...out];
}

/**
 * Plans changing one value inside an assertion's expected side so it no longer holds: the edits
 * (in source offsets) and the strategy. With `insideExpressions`, a literal inside a computed
 * expectation (`x**2 + 1`) may change too.
 */
export function planExpectedChange(
  parser: Parser,
  root: Node,
  a: FoundAssertion,
  plausible: readonly string[],
  rng: Rng,
  insideExpressions: boolean,
): AssertionPlan | undefined {
  const e = a.expected;
  if (!e || !MUTABLE_BY_VALUE.has(a.comparison) || e.span.start === e.span.end) return undefined;
  const node = nodeAt(root, e.span.start, e.span.end);
  if (!node) return undefined;
  const tolerance = a.tolerance ?? { rel: 0, abs: 0 };
  for (const leaf of rng.shuffle(mutableLeaves(node, insideExpressions))) {
    const change = changeLeaf(leaf, { tolerance, plausible, rng });
    if (!change) continue;
    let edits: Edit[] = [change.edit];
    // `x is None` → `x == value`: `is` with a new literal would test identity, not the value.
    if (a.comparison === 'is' && leaf.path.length === 0 && leaf.node.type === 'none' && a.negation)
      edits = [{ start: a.negation.span.start, end: change.edit.end, text: `== ${change.edit.text}` }];
    const rel = (x: Edit) => ({ ...x, start: x.start - e.span.start, end: x.end - e.span.start });
    const newExpected = edits[0]!.start >= e.span.start ? applyEdits(e.span.text, edits.map(rel)) : change.edit.text;
    const same = withTreeSync(parser, newExpected, (t) => {
      const first = t.rootNode.namedChild(0)?.namedChild(0);
      return !first || t.rootNode.hasError || pyEqual(literalValue(first), e.value);
    });
    if (same) continue;
    return { edits, strategy: strategyName(leaf, change.strategy) };
  }
  return undefined;
}

/** Comparisons that flip into their opposite when no expected literal can change (`a == b` → `a != b`). */
const NEGATABLE: ReadonlySet<ComparisonKind> = new Set<ComparisonKind>(['truthy', 'falsy', 'ne', 'is-not', 'in', 'not-in', 'is', 'eq', 'order']);

/** Negating the assertion (`assert f(x)` → `assert not f(x)`, `!=` → `==`, assertTrue → assertFalse). */
export function planNegation(a: FoundAssertion, allowEq = true): AssertionPlan | undefined {
  if (!a.negation || !NEGATABLE.has(a.comparison) || (!allowEq && a.comparison === 'eq')) return undefined;
  return { edits: [{ start: a.negation.span.start, end: a.negation.span.end, text: a.negation.text }], strategy: `negate-${a.comparison}` };
}
