import type { Parser } from 'web-tree-sitter';
import { isPureLiteral, literalValue, type Node } from '../../python/index.js';
import { withTreeSync } from '../../python/sync.js';
import type { SampleRecord } from '../../core/record.js';
import type { FileChange } from '../../tasks/env/diff.js';
import type { Evidence } from './kinds.js';
import type { TestedCase } from './python.js';

/** Lines read per sample at most: transcripts can be long, and tests show their asserts early. */
const MAX_LINES = 5000;

function named(node: Node): Node[] {
  return node.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
}

/** `assert f(ARGS) == EXPECTED` (either way round) with literal arguments and expectation, as a case. */
function caseOf(parser: Parser, statement: string, seen: Evidence): TestedCase | null {
  return withTreeSync(parser, statement, (tree) => {
    const assert = named(tree.rootNode)[0];
    if (assert?.type !== 'assert_statement' || tree.rootNode.hasError) return null;
    const cmp = named(assert)[0];
    if (cmp?.type !== 'comparison_operator') return null;
    const sides = named(cmp);
    const ops = cmp.children.filter((c) => c !== null && !c.isNamed).map((c) => c!.text);
    if (sides.length !== 2 || ops.length !== 1 || ops[0] !== '==') return null;
    const [a, b] = sides as [Node, Node];
    const [call, expected] = a.type === 'call' ? [a, b] : b.type === 'call' ? [b, a] : [null, null];
    if (!call || !expected) return null;
    const argList = call.childForFieldName('arguments');
    if (argList?.type !== 'argument_list') return null;
    const args = named(argList).map(literalValue);
    const value = literalValue(expected);
    if (!isPureLiteral(value) || !args.every(isPureLiteral)) return null;
    return { args, expected: value, seen };
  });
}

/** Candidate assert statements in free text: one per line, with pytest's `>` and `E` margins taken off. */
function assertLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*(?:[>E](?=\s))?\s*/, '');
    if (line.startsWith('assert ')) out.push(line.trimEnd());
  }
  return out;
}

/**
 * The tested calls the sample could have seen: in the prompt and tool output of its transcript
 * (a test read, a failure shown) and in the test files its diff touched. The agent's own words
 * are left out: an assert it wrote is no test it was given.
 */
export function seenTestCases(parser: Parser, record: SampleRecord, testFiles: FileChange[]): TestedCase[] {
  const texts: { text: string; where: (line: string) => Evidence }[] = [];
  record.transcript.forEach((m, i) => {
    if (m.role !== 'assistant')
      texts.push({ text: m.content, where: (line) => ({ source: 'transcript', text: `message ${i + 1} (${m.role}): ${line}` }) });
  });
  for (const f of testFiles) {
    const where = (line: string): Evidence => ({ source: 'testDiff', file: f.path, text: line });
    texts.push({ text: [...f.removed.values()].join('\n'), where }, { text: f.after, where });
  }
  const seen = new Set<string>();
  const cases: TestedCase[] = [];
  let budget = MAX_LINES;
  for (const { text, where } of texts) {
    for (const line of assertLines(text)) {
      if (budget-- <= 0 || seen.has(line)) continue;
      seen.add(line);
      const c = caseOf(parser, line, where(line));
      if (c) cases.push(c);
    }
  }
  return cases;
}
