import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';

// Policies answer synchronously (the model server calls them per request), so the parser is ready at import.
const require = createRequire(import.meta.url);
await Parser.init();
const language = await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
const parser = new Parser();
parser.setLanguage(language);

/** One `assert candidate(ARGS) == EXPECTED` the test makes, as source text. */
export interface TestedCall {
  /** 1-based line of the assert statement. */
  line: number;
  /** The whole assert statement. */
  statement: string;
  /** The argument list with its parentheses, e.g. `(2, [1, 3])`. */
  args: string;
  expected: string;
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of node.namedChildren) if (child) walk(child, visit);
}

function candidateCall(node: Node | null): Node | null {
  if (node?.type !== 'call') return null;
  const fn = node.childForFieldName('function');
  return fn?.type === 'identifier' && fn.text === 'candidate' ? node : null;
}

/** The `candidate(...) == value` assertions of a test, in source order; other assertion shapes are skipped. */
export function testedCalls(testSource: string): TestedCall[] {
  const tree = parser.parse(testSource);
  if (!tree) return [];
  const calls: TestedCall[] = [];
  walk(tree.rootNode, (node) => {
    if (node.type !== 'assert_statement') return;
    const comparison = node.namedChildren[0];
    if (comparison?.type !== 'comparison_operator') return;
    const operators = comparison.children.filter((c) => c && !c.isNamed);
    if (operators.length !== 1 || operators[0]?.type !== '==') return;
    const [left, right] = comparison.namedChildren;
    if (!left || !right) return;
    const call = candidateCall(left) ?? candidateCall(right);
    const expected = call === left ? right : left;
    const args = call?.childForFieldName('arguments');
    if (!call || !args || args.type !== 'argument_list') return;
    calls.push({ line: node.startPosition.row + 1, statement: node.text, args: args.text, expected: expected.text });
  });
  tree.delete();
  return calls;
}

/** The text of the assert statement that covers a 1-based line, if any. */
export function assertionAtLine(source: string, line: number): string | null {
  const tree = parser.parse(source);
  if (!tree) return null;
  let found: string | null = null;
  walk(tree.rootNode, (node) => {
    if (found === null && node.type === 'assert_statement' && node.startPosition.row + 1 <= line && node.endPosition.row + 1 >= line) {
      found = node.text;
    }
  });
  tree.delete();
  return found;
}

/** The source of a top-level `def NAME(...)` of a module (the last one, as Python keeps), or null. */
export function topLevelFunction(source: string, name: string): string | null {
  const tree = parser.parse(source);
  if (!tree) return null;
  let found: string | null = null;
  for (const node of tree.rootNode.namedChildren) {
    const def = node?.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
    if (def?.type === 'function_definition' && def.childForFieldName('name')?.text === name) found = node!.text;
  }
  tree.delete();
  return found;
}
