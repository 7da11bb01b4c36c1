import type { Parser } from 'web-tree-sitter';
import {
  MUTABLE_BY_VALUE,
  laterSlots,
  planDuplicatePlacement,
  planExpectedChange,
  planNegation,
  plausibleFrom,
  type AssertionPlan,
} from '../plan.js';
import { indentAt, lineAt, type MutationType, type TextMutation } from '../outcome.js';
import { readCheck, type CheckAssertion, type CheckFunction } from '../../python/check.js';
import { isPureLiteral } from '../../python/literal.js';
import { pythonParser, type Node } from '../../python/parser.js';
import { withTreeSync } from '../../python/sync.js';
import { rngFor, type Rng } from '../rng.js';
import { applyEdits, type Edit } from '../values.js';

/** How many candidate assertions to try before giving up on a test. */
const MAX_TRIES = 24;

function planValueChange(root: Node, a: CheckAssertion, check: CheckFunction, rng: Rng, parser: Parser): AssertionPlan | undefined {
  if (!a.expected || !isPureLiteral(a.expected.value)) return undefined;
  return planExpectedChange(parser, root, a, plausibleFrom(check.assertions), rng, false);
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
export async function mutateLcbTest(test: string, type: MutationType, seed: number, key: string, skip?: ReadonlySet<string>): Promise<TextMutation> {
  const parser = await pythonParser();
  return withTreeSync(parser, test, (tree): TextMutation => {
    const root = tree.rootNode;
    const reading = readCheck(root, test);
    if (!reading.ok) return reading;
    const check = reading.check;
    if (check.assertions.length === 0) return { ok: false, reason: `\`check\` has no assertion on a call of \`${check.param}\` to change` };
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
      const plan = planValueChange(root, a, check, rng, parser) ?? planNegation(a, false);
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
        const at =
          indent === undefined
            ? undefined
            : planDuplicatePlacement(test, check.statements, a.topIndex, new Set(check.statements[a.topIndex]!.names), rng);
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
      // Validation rejected this one already: the next in the same order comes out instead.
      if (skip?.has(text)) {
        lastProblem = 'every variant the engine makes of it was tried';
        continue;
      }
      return {
        ok: true,
        text,
        record: { type, strategy: type === 'conflicting' ? `duplicate/${plan.strategy}` : plan.strategy, seed, line, before, after },
      };
    }
    return { ok: false, reason: lastProblem };
  });
}
