import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoSources } from '../../core/testing/sources.js';
import { taskKindNames } from './registry.js';

/**
 * A kind of task is known in its own modules only (`tasks/kinds/`, `mutations/kinds/`, `scaffolds/kinds/`): code
 * elsewhere asks the kind's parts, so adding a kind edits no other file. This fails where any other source compares a
 * task's kind with a kind's name or switches on it. Tests and test helpers may name kinds.
 */
const KIND_MODULES = /^(tasks|mutations|scaffolds)\/kinds\//;
const isTestSide = (path: string) => /\.test\.ts$/.test(path) || /(^|\/)(testing|fixtures)(\/|\.ts$)/.test(path) || path.startsWith('bench/');

/** `x.kind`, `kind`, `x.kind!`: an expression that reads a kind. */
function readsKind(node: ts.Expression): boolean {
  const e = ts.isNonNullExpression(node) || ts.isParenthesizedExpression(node) ? node.expression : node;
  if (ts.isIdentifier(e)) return e.text === 'kind';
  return ts.isPropertyAccessExpression(e) && e.name.text === 'kind';
}

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Where a source branches on a task kind by name, one `path:line: text` each. */
function kindBranches(path: string, text: string, names: readonly string[]): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const isName = (node: ts.Node) => ts.isStringLiteralLike(node) && names.includes(node.text);
  const found: string[] = [];
  const at = (node: ts.Node) => {
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push(`${path}:${line}: ${node.getText().split('\n')[0]}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
      if ((readsKind(node.left) && isName(node.right)) || (readsKind(node.right) && isName(node.left))) at(node);
    }
    if (ts.isSwitchStatement(node) && readsKind(node.expression)) {
      for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause) && isName(clause.expression)) at(clause);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('task kinds', () => {
  it('no source outside the kinds’ own modules branches on a task kind', () => {
    const names = taskKindNames();
    expect(names).toEqual(['lcb', 'swe']);
    const found = repoSources()
      .filter((s) => !KIND_MODULES.test(s.path) && !isTestSide(s.path))
      .flatMap((s) => kindBranches(s.path, s.text, names));
    expect(found, "ask the kind's parts (tasks/kinds/, mutations/kinds/, scaffolds/kinds/) instead").toEqual([]);
  });

  it('catches each way of branching on a kind, and nothing else', () => {
    const names = ['lcb', 'swe'];
    const branches = (code: string) => kindBranches('x.ts', code, names).length;
    expect(branches("if (task.kind === 'swe') go();")).toBe(1);
    expect(branches("const lcb = tasks.filter((t) => t.kind !== 'lcb');")).toBe(1);
    expect(branches("if ('swe' == t.kind!) go();")).toBe(1);
    expect(branches("if (kind === 'lcb') go();")).toBe(1);
    expect(branches("switch (task.kind) { case 'lcb': a(); break; case 'swe': b(); }")).toBe(2);
    // Other kinds (a scaffold's, an event's) and other fields are not task kinds.
    expect(branches("if (run.kind === 'minimal' || end.kind === 'disk_limit') go();")).toBe(0);
    expect(branches("if (task.variant === 'original' || name === 'swe') go();")).toBe(0);
  });
});
