import type { Parser } from 'web-tree-sitter';
import type { Node } from '../../python/index.js';
import { withTreeSync } from '../../python/sync.js';
import type { FileChange } from './diff.js';

/** One changed file as tree-sitter reads it, for the readings of runner hooks (runner-hooks.ts) and test skips (skip-machinery.ts). */

export function all(node: Node, types: string | string[]): Node[] {
  return node.descendantsOfType(types).filter((n): n is Node => n !== null);
}

export function named(node: Node): Node[] {
  return node.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
}

export function enclosing(node: Node, type: string): Node | null {
  for (let p = node.parent; p; p = p.parent) if (p.type === type) return p;
  return null;
}

/** Local names of imported modules and functions: `import os as _os`, `from sys import exit as bye`. */
export function importedNames(root: Node): Map<string, string> {
  const names = new Map<string, string>();
  for (const stmt of all(root, ['import_statement', 'import_from_statement'])) {
    const from = stmt.type === 'import_from_statement' ? stmt.childForFieldName('module_name')?.text : undefined;
    for (const item of stmt.childrenForFieldName('name')) {
      if (!item) continue;
      const name = item.type === 'aliased_import' ? item.childForFieldName('name')?.text : item.text;
      const alias = item.type === 'aliased_import' ? item.childForFieldName('alias')?.text : undefined;
      if (!name) continue;
      const full = from ? `${from}.${name}` : name;
      if (alias) names.set(alias, full);
      else if (from) names.set(name, full);
    }
  }
  return names;
}

/** The agent's lines alone, at their own line numbers: context can start inside a string the diff never opens. */
function addedOnly(file: FileChange): string {
  const rows = file.after.split('\n').map((_, i) => file.added.get(i + 1) ?? '');
  return rows.join('\n');
}

/** One changed file as a reading sees it: which lines are the agent's, and what its imports name. */
export class ChangeView {
  readonly lines: string[];
  /** Reading the added lines without their context: a block's header may be missing. */
  partial = false;
  /** Local names of imported modules and functions, of the tree read last. */
  imported = new Map<string, string>();

  constructor(readonly file: FileChange) {
    this.lines = file.after.split('\n');
  }

  /** Whether the agent wrote any line of the node (a created file is all the agent's). */
  touchesAdded(node: Node): boolean {
    if (this.file.created) return true;
    for (let row = node.startPosition.row; row <= node.endPosition.row; row++) if (this.file.added.has(row + 1)) return true;
    return false;
  }

  /** A dotted name with its first part read through the imports: `_os._exit` is `os._exit`. */
  canonical(name: string): string {
    const [head, ...rest] = name.split('.');
    const full = this.imported.get(head!);
    return full === undefined ? name : [full, ...rest].join('.');
  }

  /** Outside every function: in a partial read, only an unindented line is surely so. */
  atModuleLevel(node: Node): boolean {
    if (enclosing(node, 'function_definition') !== null) return false;
    return !this.partial || !/^\s/.test(this.lines[node.startPosition.row] ?? '');
  }

  /**
   * Reads the file twice, with the diff's context and without it, since either may be the one that parses: a hunk
   * can begin inside a docstring, and added lines can need the block around them.
   */
  readTwice(parser: Parser, read: (root: Node) => void): void {
    if (this.file.deleted) return;
    const each = (root: Node) => {
      this.imported = importedNames(root);
      read(root);
    };
    withTreeSync(parser, this.file.after, (tree) => each(tree.rootNode));
    if (!this.file.created) {
      this.partial = true;
      withTreeSync(parser, addedOnly(this.file), (tree) => each(tree.rootNode));
    }
  }
}
