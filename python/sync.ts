import type { Parser, Tree } from 'web-tree-sitter';

/** Parses with an already loaded parser and frees the tree after `use`. */
export function withTreeSync<T>(parser: Parser, source: string, use: (tree: Tree) => T): T {
  const tree = parser.parse(source);
  if (!tree) throw new Error('the Python parser returned no tree');
  try {
    return use(tree);
  } finally {
    tree.delete();
  }
}
