import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';
import { withTreeSync } from './sync.js';

export type { Node, Tree };

const require = createRequire(import.meta.url);

let ready: Promise<Parser> | undefined;

/**
 * The one Python parser of the process. The WASM runtime and the grammar are loaded once, on
 * first use; every later call reuses them (loading takes tens of milliseconds, parsing microseconds).
 */
export function pythonParser(): Promise<Parser> {
  ready ??= (async () => {
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-python/tree-sitter-python.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })().catch((err: unknown) => {
    ready = undefined; // a later call may retry
    throw err;
  });
  return ready;
}

/**
 * Parses `source`, hands the tree to `use`, and frees the tree's WASM memory afterwards.
 * Nodes must not escape `use`: copy what is needed into plain data.
 * Node offsets (`startIndex`/`endIndex`) are UTF-16 code units, so they slice JS strings directly.
 */
export async function withPythonTree<T>(source: string, use: (tree: Tree) => T): Promise<T> {
  return withTreeSync(await pythonParser(), source, use);
}

/** Where the source fails to parse, as "line N: ..." (1-based), or undefined when it parses cleanly. */
export function firstSyntaxError(root: Node): string | undefined {
  if (!root.hasError) return undefined;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) {
      const what = node.isMissing ? `missing ${node.type}` : `unexpected ${JSON.stringify(node.text.slice(0, 40))}`;
      return `line ${node.startPosition.row + 1}: ${what}`;
    }
    if (node.hasError) {
      const kids = node.children.filter((c): c is Node => c !== null);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return `line ${root.startPosition.row + 1}: syntax error`;
}

/** Non-null children: by default the named ones, without extras (comments, line continuations). */
export function kids(node: Node, named = true): Node[] {
  return (named ? node.namedChildren : node.children).filter((c): c is Node => c !== null && (!named || !c.isExtra));
}
