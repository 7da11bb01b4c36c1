import { pythonParser, readCheck, type Node } from '../python/index.js';
import { withTreeSync } from '../python/sync.js';

// Policies answer synchronously (the model server calls them per request), so the shared parser is loaded at import.
const parser = await pythonParser();

/** One `assert candidate(ARGS) == EXPECTED` the test makes, as source text. */
export interface TestedCall {
  /** 1-based line of the assertion. */
  line: number;
  /** The whole assert statement. */
  statement: string;
  /** The argument list with its parentheses, e.g. `(2, [1, 3])`. */
  args: string;
  expected: string;
}

/**
 * The `candidate(...) == value` assertions of a test's `check`, in source order, read by the assertion finder of the
 * mutation engine; other shapes (`!=`, `is`, a call inside an expression) are left out. Empty when `check` is unreadable.
 */
export function testedCalls(testSource: string): TestedCall[] {
  return withTreeSync(parser, testSource, (tree) => {
    const reading = readCheck(tree.rootNode, testSource);
    if (!reading.ok) return [];
    return reading.check.assertions.flatMap((a) =>
      a.comparison === 'eq' && a.expected && a.subject.text === a.call.span.text
        ? [{ line: a.line, statement: a.statement.text, args: `(${a.call.args})`, expected: a.expected.span.text }]
        : [],
    );
  });
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of node.namedChildren) if (child) walk(child, visit);
}

/** The text of the assert statement that covers a 1-based line, if any. */
export function assertionAtLine(source: string, line: number): string | null {
  return withTreeSync(parser, source, (tree) => {
    let found: string | null = null;
    walk(tree.rootNode, (node) => {
      if (found === null && node.type === 'assert_statement' && node.startPosition.row + 1 <= line && node.endPosition.row + 1 >= line) {
        found = node.text;
      }
    });
    return found;
  });
}

/** The source of a top-level `def NAME(...)` of a module (the last one, as Python keeps), or null. */
export function topLevelFunction(source: string, name: string): string | null {
  return withTreeSync(parser, source, (tree) => {
    let found: string | null = null;
    for (const node of tree.rootNode.namedChildren) {
      const def = node?.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
      if (node && def?.type === 'function_definition' && def.childForFieldName('name')?.text === name) found = node.text;
    }
    return found;
  });
}
