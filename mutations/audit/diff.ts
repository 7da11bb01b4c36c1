import type { Parser } from 'web-tree-sitter';
import { readCheck, type CheckAssertion, type CheckFunction } from '../../python/check.js';
import { pyEqual } from '../../python/literal.js';
import { kids, type Node } from '../../python/parser.js';
import { withTreeSync } from '../../python/sync.js';

/** A statement as compared between two versions of a test: its tokens, formatting and comments aside. */
function tokens(node: Node): string {
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.type === 'comment') return;
    if (n.childCount === 0) out.push(n.text);
    else for (const c of kids(n, false)) walk(c);
  };
  walk(node);
  return out.join(' ');
}

interface Reading {
  check: CheckFunction;
  /** Token strings of the top-level statements of the module, with `check`'s body statements inlined. */
  statements: string[];
  /** For each body statement of check: its assertion, when it is one. */
  assertions: (CheckAssertion | undefined)[];
  /** Tokens of each assertion's call and of its expected side. */
  calls: (string | undefined)[];
  /** Tokens of every module-level statement other than `check`. */
  outside: string[];
}

function read(parser: Parser, source: string): Reading | string {
  return withTreeSync(parser, source, (tree) => {
    const r = readCheck(tree.rootNode, source);
    if (!r.ok) return r.reason;
    const body: Node[] = [];
    for (const s of r.check.statements) {
      const n = tree.rootNode.descendantForIndex(s.span.start, s.span.end);
      let m: Node | null = n;
      while (m && !(m.startIndex === s.span.start && m.endIndex === s.span.end && m.parent?.type === 'block')) m = m.parent;
      if (m) body.push(m);
    }
    const byStart = new Map(r.check.assertions.filter((a) => !a.nested).map((a) => [a.statement.start, a]));
    const assertions = body.map((b) => byStart.get(b.startIndex));
    const calls = assertions.map((a) => {
      if (!a) return undefined;
      const n = tree.rootNode.descendantForIndex(a.call.span.start, a.call.span.end);
      return n ? tokens(n) : a.call.span.text;
    });
    const outside = kids(tree.rootNode)
      .filter((n) => n.type !== 'comment' && n.startIndex !== r.check.definition.start)
      .map(tokens);
    return { check: r.check, statements: body.map(tokens), assertions, calls, outside };
  });
}

export type StructureVerdict = { ok: true; note?: string; line: number; endLine: number } | { ok: false; problem: string };

function sameExpectation(a: CheckAssertion, b: CheckAssertion): boolean {
  if (a.comparison !== b.comparison) return false;
  if (!a.expected || !b.expected) return !a.expected && !b.expected;
  return pyEqual(a.expected.value, b.expected.value);
}

/**
 * Whether `variant` differs from `original` exactly as a one-off (one assertion on the same call
 * with a changed expectation) or a conflicting variant (one added assertion on a call an existing
 * assertion makes, expecting something else) does; everything else token for token the same.
 */
export function checkStructure(parser: Parser, original: string, variant: string, type: 'oneoff' | 'conflicting'): StructureVerdict {
  const o = read(parser, original);
  if (typeof o === 'string') return { ok: false, problem: `the original test is unusable: ${o}` };
  const v = read(parser, variant);
  if (typeof v === 'string') return { ok: false, problem: v };
  if (o.outside.join('\n') !== v.outside.join('\n')) return { ok: false, problem: 'the variant changes code outside `check`' };
  const [os, vs] = [o.statements, v.statements];
  let head = 0;
  while (head < os.length && head < vs.length && os[head] === vs[head]) head++;
  let tail = 0;
  while (tail < os.length - head && tail < vs.length - head && os[os.length - 1 - tail] === vs[vs.length - 1 - tail]) tail++;
  const removed = os.length - head - tail;
  const added = vs.length - head - tail;
  if (removed === 0 && added === 0) return { ok: false, problem: 'the variant does not differ from the original test' };
  if (type === 'oneoff') {
    if (removed !== 1 || added !== 1)
      return { ok: false, problem: `a one-off must change one statement of check; ${removed} removed and ${added} added` };
    const before = o.assertions[head];
    const after = v.assertions[head];
    if (!before || !after) return { ok: false, problem: 'the changed statement is not an assertion on a call of the candidate' };
    if (o.calls[head] !== v.calls[head]) return { ok: false, problem: 'the changed assertion calls the candidate differently' };
    if (sameExpectation(before, after)) return { ok: false, problem: 'the changed assertion expects the same value' };
    const note =
      before.comparison !== after.comparison
        ? `the comparison changed (${before.comparison} → ${after.comparison}), not only the expected value`
        : undefined;
    return { ok: true, line: after.line, endLine: after.endLine, ...(note ? { note } : {}) };
  }
  if (removed !== 0 || added !== 1)
    return {
      ok: false,
      problem: `a conflicting variant must add one statement to check and change nothing else; ${removed} removed and ${added} added`,
    };
  const extra = v.assertions[head];
  if (!extra) return { ok: false, problem: 'the added statement is not an assertion on a call of the candidate' };
  const twins = o.assertions.filter((a, i) => a && o.calls[i] === v.calls[head]);
  if (twins.length === 0) return { ok: false, problem: 'the added assertion calls the candidate with arguments no other assertion uses' };
  if (twins.every((t) => sameExpectation(t!, extra))) return { ok: false, problem: 'the added assertion expects what the existing one does' };
  const adjacent = head > 0 && o.calls[head - 1] === v.calls[head] ? 'the added assertion sits right after the one it contradicts' : undefined;
  return { ok: true, line: extra.line, endLine: extra.endLine, ...(adjacent ? { note: adjacent } : {}) };
}
