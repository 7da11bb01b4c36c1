import type { Parser } from 'web-tree-sitter';
import { MUTABLE_BY_VALUE, laterSlots, planDuplicatePlacement, type AssertionPlan } from '../plan.js';
import { indentAt, lineAt, type MutationType, type TextMutation } from '../outcome.js';
import { readCheck, type CheckAssertion, type CheckFunction } from '../python/check.js';
import { isPureLiteral, literalValue, pyEqual } from '../python/literal.js';
import { pythonParser, type Node } from '../python/parser.js';
import { withTreeSync } from '../python/sync.js';
import { rngFor, type Rng } from '../rng.js';
import { applyEdits, changeLeaf, mutableLeaves, strategyName, type Edit } from '../values.js';

/** How many candidate assertions to try before giving up on a test. */
const MAX_TRIES = 24;

/** The node spanning exactly [start, end). */
function nodeAt(root: Node, start: number, end: number): Node | undefined {
  const n = root.descendantForIndex(start, end);
  return n && n.startIndex === start && n.endIndex === end ? n : undefined;
}

/** Non-None literal expected values elsewhere in the test: what a None could plausibly have been. */
function plausibleValues(check: CheckFunction): string[] {
  const out = new Set<string>();
  for (const a of check.assertions) {
    const e = a.expected;
    if (e && e.kind !== 'none' && e.kind !== 'expression' && isPureLiteral(e.value) && e.span.text.length <= 80) out.add(e.span.text);
  }
  return [...out];
}

/** Plans the expected-value change of one assertion: the edits (in test offsets) and the strategy. */
function planValueChange(root: Node, a: CheckAssertion, check: CheckFunction, rng: Rng, parser: Parser): AssertionPlan | undefined {
  const e = a.expected;
  if (!e || !MUTABLE_BY_VALUE.has(a.comparison) || !isPureLiteral(e.value)) return undefined;
  const node = nodeAt(root, e.span.start, e.span.end);
  if (!node) return undefined;
  const leaves = rng.shuffle(mutableLeaves(node));
  const tolerance = a.tolerance ?? { rel: 0, abs: 0 };
  for (const leaf of leaves) {
    const change = changeLeaf(leaf, { tolerance, plausible: plausibleValues(check), rng });
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

/** Negating the assertion (`assert f(x)` → `assert not f(x)`, `!=` → `==`): for checks with no expected literal. */
function planNegation(a: CheckAssertion): AssertionPlan | undefined {
  if (!a.negation) return undefined;
  if (!['truthy', 'falsy', 'ne', 'is-not', 'in', 'not-in'].includes(a.comparison)) return undefined;
  return { edits: [{ start: a.negation.span.start, end: a.negation.span.end, text: a.negation.text }], strategy: `negate-${a.comparison}` };
}

/** Tiers of preference: a changed literal directly in `check`, then in a nested block, then negations. */
function tierOf(a: CheckAssertion): number {
  const byValue = a.expected && MUTABLE_BY_VALUE.has(a.comparison) && isPureLiteral(a.expected.value);
  return (byValue ? 0 : 2) + (a.nested ? 1 : 0);
}

function verify(parser: Parser, text: string, expectedCount: number): string | undefined {
  return withTreeSync(parser, text, (t) => {
    const r = readCheck(t.rootNode, text);
    if (!r.ok) return r.reason;
    if (r.check.assertions.length !== expectedCount) return `the variant has ${r.check.assertions.length} assertions, expected ${expectedCount}`;
    return undefined;
  });
}

/**
 * Makes the one-off or conflicting variant of a HumanEval-style test (`def check(candidate)`),
 * deterministically from `seed` and `key` (the task id). Every byte outside the change stays.
 */
export async function mutateLcbTest(test: string, type: MutationType, seed: number, key: string): Promise<TextMutation> {
  const parser = await pythonParser();
  return withTreeSync(parser, test, (tree): TextMutation => {
    const root = tree.rootNode;
    const reading = readCheck(root, test);
    if (!reading.ok) return reading;
    const check = reading.check;
    if (check.assertions.length === 0)
      return { ok: false, reason: `\`check\` has no assertion on a call of \`${check.param}\` to change` };
    const rng = rngFor(seed, key, type);
    const eligible = check.assertions.filter((a) => type === 'oneoff' || !a.nested);
    const byTier = new Map<number, CheckAssertion[]>();
    for (const a of eligible) byTier.set(tierOf(a), [...(byTier.get(tierOf(a)) ?? []), a]);
    let order: CheckAssertion[] = [];
    for (const tier of [...byTier.keys()].sort((x, y) => x - y)) {
      let group = rng.shuffle(byTier.get(tier)!);
      // Conflicting: prefer assertions with room after them, so the duplicate is not adjacent.
      if (type === 'conflicting') {
        const roomy = group.filter((a) => laterSlots(check.statements, a.topIndex, new Set(check.statements[a.topIndex]!.names)).length > 0);
        group = [...roomy, ...group.filter((a) => !roomy.includes(a))];
      }
      order = order.concat(group);
    }
    let lastProblem = 'no assertion compares a call of the candidate with a literal value or can be negated';
    for (const a of order.slice(0, MAX_TRIES)) {
      const plan = planValueChange(root, a, check, rng, parser) ?? planNegation(a);
      if (!plan) continue;
      const before = a.statement.text;
      const rel = (x: Edit) => ({ ...x, start: x.start - a.statement.start, end: x.end - a.statement.start });
      const after = applyEdits(before, plan.edits.map(rel));
      let text: string;
      let line: number;
      if (type === 'oneoff') {
        text = applyEdits(test, plan.edits);
        line = a.line;
      } else {
        const indent = indentAt(test, a.statement.start);
        const at = indent === undefined ? undefined : planDuplicatePlacement(test, check.statements, a.topIndex, new Set(check.statements[a.topIndex]!.names), rng);
        if (!at || indent === undefined) {
          lastProblem = 'no place after the chosen assertion to add its contradicting duplicate';
          continue;
        }
        const insert = `${at.newlineBefore ? '\n' : ''}${indent}${after}\n`;
        const inserted = at.newlineBefore ? insert.slice(0, -1) : insert;
        text = test.slice(0, at.offset) + inserted + test.slice(at.offset);
        line = lineAt(text, at.offset + (at.newlineBefore ? 1 : 0));
      }
      const problem = verify(parser, text, check.assertions.length + (type === 'conflicting' ? 1 : 0));
      if (problem) {
        lastProblem = `the changed test would not be valid (${problem})`;
        continue;
      }
      return { ok: true, text, record: { type, strategy: type === 'conflicting' ? `duplicate/${plan.strategy}` : plan.strategy, seed, line, before, after } };
    }
    return { ok: false, reason: lastProblem };
  });
}
