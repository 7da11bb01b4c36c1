import type { MutationType } from '../outcome.js';
import { planExpectedChange, planNegation, plausibleFrom, type AssertionPlan } from '../plan.js';
import { findAssertions, nonLiteral, type FoundAssertion, type Span } from '../../python/assertions.js';
import { isPureLiteral, literalValue } from '../../python/literal.js';
import type { Node } from '../../python/parser.js';
import type { Rng } from '../rng.js';
import type { Parser, Tree } from 'web-tree-sitter';
import { regionFunctions, type Region, type RegionFunction } from './fragment.js';
import { OWN_KIND_METHODS, ownKindPlan } from '../own-kind.js';
import { applyPlan, slotsAfter, type Candidate } from './edit.js';
import { expectErrorChange } from './expect-error.js';
import { fileMayHold, type TestRef } from './test-id.js';
import { assignmentOf, parameterOf, rootName } from './expectation-source.js';
import type { KindInput, SweVariant } from './types.js';

/*
 * The kinds that edit the target tests' own assertions: their expected values, their negations, and a final
 * statement made to expect an error. The other kinds read rows, lists and tables around them.
 */

const EXPRESSION_OK = new Set(['eq', 'isclose', 'approx', 'abs-diff']);

function matches(ref: TestRef, fn: RegionFunction): boolean {
  if (ref.description !== undefined) return fn.description === ref.description;
  if (fn.name !== ref.name) return false;
  // When the region shows the enclosing class, it must be the test's.
  const cls = ref.classes[ref.classes.length - 1];
  const seen = fn.classes[fn.classes.length - 1];
  return !cls || !seen || cls === seen;
}

/** The statement node an assertion was read from. */
function statementNode(tree: Tree, a: FoundAssertion): Node | undefined {
  let n: Node | null = tree.rootNode.descendantForIndex(a.statement.start, a.statement.end);
  while (
    n &&
    !(
      n.startIndex === a.statement.start &&
      n.endIndex === a.statement.end &&
      (n.type === 'assert_statement' || n.type === 'expression_statement' || n.type === 'with_statement')
    )
  )
    n = n.parent;
  return n ?? undefined;
}

/**
 * Where a named expectation's value is read from. A value the expectation only reads into
 * (`created.username`) is an object made for the test: the arguments of the calls that made it
 * are inputs to the code, not expected values, so they never change.
 */
function expectationVia(fn: Node, ref: TestRef, root: Node, use: Node, asserts: Span[], expected: Span): Candidate['via'] {
  const via = assignmentOf(fn, root, use, asserts) ?? parameterOf(fn, ref.param, root, asserts);
  const whole = root.startIndex === expected.start && root.endIndex === expected.end;
  return via && !whole && via.value.descendantsOfType('call').length > 0 ? undefined : via;
}

export function candidatesFor(ref: TestRef, regions: KindInput['regions']): Candidate[] {
  const out: Candidate[] = [];
  for (const { region, tree } of regions) {
    if (!fileMayHold(ref, region.file.newPath)) continue;
    for (const fn of regionFunctions(region, tree)) {
      if (!matches(ref, fn)) continue;
      const found = findAssertions(fn.node, nonLiteral, { rightIsExpected: true, orderComparisons: true });
      const asserts = found.map((a) => a.statement);
      let seenAdded = false;
      for (const a of found) {
        const node = statementNode(tree, a);
        if (!node || node.hasError || node.startPosition.row < region.prefixLines) continue;
        const rows: number[] = [];
        for (let r = node.startPosition.row; r <= node.endPosition.row; r++) rows.push(r);
        const added = rows.some((r) => region.lines[r - region.prefixLines]?.op === '+');
        const literal = !!a.expected && isPureLiteral(a.expected.value);
        const root = !literal && a.expected && EXPRESSION_OK.has(a.comparison) ? rootName(tree, a.expected.span) : undefined;
        const via = root ? expectationVia(fn.node, ref, root, node, asserts, a.expected!.span) : undefined;
        const ownKind = OWN_KIND_METHODS.has(a.method ?? '');
        const tier = (literal ? 0 : (a.expected && EXPRESSION_OK.has(a.comparison)) || ownKind ? 2 : 4) + (added ? 0 : 1);
        const firstAdded = added && !seenAdded;
        seenAdded ||= added;
        out.push({ region, tree, fn, assertion: a, node, tier, added, firstAdded });
        if (via) out.push({ region, tree, fn, assertion: a, node, tier: 2 + (added ? 0 : 1), added, firstAdded, via });
      }
    }
  }
  return out;
}

/**
 * The order candidates are tried in, lowest first. A one-off that flips a pass/fail outcome (a
 * negation, a flipped bool) on a line the patch adds may state what the unfixed code does, since
 * such lines are where the test failed before the fix; the same flip on an unchanged line held
 * before and so contradicts the unfixed code too. Among added lines, a later one leaves the first
 * added assertion standing before it, where the unfixed code most likely fails already.
 */
function rank(c: Candidate, type: MutationType, negate: boolean): number {
  const flips = negate || c.assertion.expected?.kind === 'bool';
  if (type !== 'oneoff' || !flips || !c.added) return c.tier;
  return c.tier + (c.firstAdded ? 20 : 10);
}

/** The functions of the test that the regions show. */
function functionsOf(ref: TestRef, regions: KindInput['regions']): { region: Region; fn: RegionFunction }[] {
  return regions.flatMap(({ region, tree }) =>
    fileMayHold(ref, region.file.newPath)
      ? regionFunctions(region, tree)
          .filter((fn) => matches(ref, fn))
          .map((fn) => ({ region, fn }))
      : [],
  );
}

/** Whether any region shows a function of the test at all. */
export function functionsShown(ref: TestRef, regions: KindInput['regions']): boolean {
  return functionsOf(ref, regions).length > 0;
}

function planFor(parser: Parser, c: Candidate, plausible: string[], rng: Rng, negate: boolean, type: MutationType): AssertionPlan | undefined {
  if (negate) return c.via ? undefined : planNegation(c.assertion);
  if (c.via) {
    const value = literalValue(c.via.value);
    const asExpected: FoundAssertion = {
      ...c.assertion,
      comparison: 'eq',
      expected: { span: { start: c.via.value.startIndex, end: c.via.value.endIndex, text: c.via.value.text }, kind: value.kind, value },
    };
    const plan = planExpectedChange(parser, c.tree.rootNode, asExpected, plausible, rng, true);
    return plan ? { ...plan, strategy: `expected-${c.via.kind}/${plan.strategy}` } : undefined;
  }
  const own = ownKindPlan(c.tree.rootNode, c.node, c.assertion, type);
  if (own) return own;
  const literal = !!c.assertion.expected && isPureLiteral(c.assertion.expected.value);
  const byValue = planExpectedChange(parser, c.tree.rootNode, c.assertion, plausible, rng, !literal && EXPRESSION_OK.has(c.assertion.comparison));
  return byValue;
}

/**
 * Changed expected values (`negate` false) or negations of the targets' assertions, earliest test first. Plans that
 * cannot apply go to the input's `notes.problems`.
 */
export function* assertionVariants(input: KindInput, negate: boolean): Generator<SweVariant> {
  const { parser, patch, targets, type, rng, seed, notes } = input;
  for (const { ref, found: all } of targets) {
    const found = negate ? all.filter((c) => !c.via) : all.filter((c) => c.tier < 4 && !(type === 'oneoff' && c.via?.readElsewhere));
    if (found.length === 0) continue;
    const plausible = plausibleFrom(all.map((c) => c.assertion));
    const ranks = [...new Set(found.map((c) => rank(c, type, negate)))].sort((a, b) => a - b);
    let order: Candidate[] = [];
    for (const t of ranks) {
      let group = rng.shuffle(found.filter((c) => rank(c, type, negate) === t));
      if (type === 'conflicting') {
        const roomy = group.filter((c) => slotsAfter(c).length > 0);
        group = [...roomy, ...group.filter((c) => !roomy.includes(c))];
      }
      order = order.concat(group);
    }
    for (const c of order.slice(0, 24)) {
      const plan = planFor(parser, c, plausible, rng, negate, type);
      if (!plan) continue;
      const result = applyPlan(parser, patch, c, plan, type, rng, seed, ref);
      if (typeof result !== 'string' && result.ok) yield result;
      else if (typeof result === 'string') notes.problems.push(result);
    }
  }
}

/** A test with nothing to change: its final call made to expect an error. Why a test's cannot goes to `notes.unwrappable`. */
export function* expectErrorVariants(input: KindInput): Generator<SweVariant> {
  const { parser, patch, targets, regions, type, seed, notes } = input;
  for (const { id, ref } of targets) {
    // The function's last hunk first: the statement wrapped should be as late as it can be.
    for (const { region, fn } of functionsOf(ref, regions).reverse()) {
      const change = expectErrorChange(parser, patch, region, fn, ref.classes.length, type);
      if (typeof change === 'string') {
        notes.unwrappable.push({ id, why: change });
        continue;
      }
      const { testPatch, wholeFunction, ...shown } = change;
      const strategy = type === 'conflicting' ? 'duplicate/expect-error' : 'expect-error';
      yield { ok: true, testPatch, wholeFunction, record: { type, strategy, seed, ...shown, file: region.file.newPath, testId: ref.raw } };
    }
  }
}
