import type { Tree } from 'web-tree-sitter';
import { unwrapParens } from '../../python/literal.js';
import { kids, type Node } from '../../python/parser.js';
import { mutableLeaves } from '../values.js';
import type { Candidate } from './types.js';
import { parametrizedValue } from './parametrize.js';

/**
 * Where an expected value that is a name comes from: the variable assigned before the assertion,
 * or the parametrize row the test id names.
 */

/**
 * The variable an expectation is read from: `expected`, `expected.strip()`, `expected["a"]`, or
 * the template of `msg % (value,)` (as of `msg.format(value)`): the arguments are inputs the test
 * also hands the code, so only the template may change.
 */
export function rootName(tree: Tree, at: { start: number; end: number }): Node | undefined {
  let n: Node | null = tree.rootNode.descendantForIndex(at.start, at.end);
  while (n && n.startIndex === at.start && n.endIndex === at.end && n.parent && n.parent.startIndex === at.start && n.parent.endIndex === at.end)
    n = n.parent;
  for (let depth = 0; n && depth < 8; depth++) {
    if (n.type === 'identifier') return n;
    if (n.type === 'call') n = n.childForFieldName('function');
    else if (n.type === 'attribute') n = n.childForFieldName('object');
    else if (n.type === 'subscript') n = n.childForFieldName('value');
    else if (n.type === 'parenthesized_expression') n = n.namedChild(0);
    else if (n.type === 'binary_operator' && n.childForFieldName('operator')?.type === '%') n = n.childForFieldName('left');
    else return undefined;
  }
  return undefined;
}

/** Whether the name is read as the left side of a `%` (a template, or a number's modulo). */
function formattedWithPercent(nameNode: Node): boolean {
  for (let n: Node = nameNode, p = n.parent; p && p.type !== 'expression_statement' && p.type !== 'block'; n = p, p = p.parent)
    if (p.type === 'binary_operator' && p.childForFieldName('operator')?.type === '%' && p.childForFieldName('left')?.id === n.id) return true;
  return false;
}

/** A value the expectation may be read from: a name formatted with `%` only as a string template, never a number's modulo. */
function changeable(nameNode: Node, value: Node): boolean {
  if (mutableLeaves(value, true).length === 0) return false;
  const v = unwrapParens(value);
  return !formattedWithPercent(nameNode) || v.type === 'string' || v.type === 'concatenated_string';
}

/**
 * The last visible `name = value` before `use` in the function, when its value holds literals to
 * change. `readElsewhere` says the name is also read outside assertions: such a value may feed the
 * code under test (`lines` read into a table, then compared with its output), so changing it in
 * place would change the input too; only a duplicate that spells the changed value out is sound.
 */
export function assignmentOf(fn: Node, nameNode: Node, use: Node, asserts: { start: number; end: number }[]): Candidate['via'] {
  const name = nameNode.text;
  const readElsewhere = readOutsideAssertions(fn, name, asserts);
  let found: Candidate['via'];
  for (const asg of fn.descendantsOfType('assignment')) {
    if (!asg || asg.startIndex >= use.startIndex) continue;
    const left = asg.childForFieldName('left');
    const right = asg.childForFieldName('right');
    const statement = asg.parent;
    if (left?.type !== 'identifier' || left.text !== name || !right || statement?.type !== 'expression_statement' || statement.hasError) continue;
    found = changeable(nameNode, right)
      ? { statement, value: right, name: { start: nameNode.startIndex, end: nameNode.endIndex }, readElsewhere, kind: 'variable' }
      : undefined;
  }
  return found;
}

/** Whether `name` is read anywhere in the function but inside its assertions. */
export function readOutsideAssertions(fn: Node, name: string, asserts: { start: number; end: number }[]): boolean {
  for (const id of fn.descendantsOfType('identifier')) {
    if (!id || id.text !== name) continue;
    const parent = id.parent;
    if (parent?.type === 'assignment' && parent.childForFieldName('left')?.id === id.id) continue;
    if (parent?.type === 'attribute' && parent.childForFieldName('attribute')?.id === id.id) continue;
    if (parent?.type === 'keyword_argument' && parent.childForFieldName('name')?.id === id.id) continue;
    // The function's own parameter list declares the name; it does not read it.
    if (parent?.type === 'parameters' || parent?.parent?.type === 'parameters') continue;
    if (!asserts.some((a) => id.startIndex >= a.start && id.endIndex <= a.end)) return true;
  }
  return false;
}

/** Whether the function binds `name` anywhere in its body (assignment, loop, `with ... as`, walrus). */
function rebinds(fn: Node, name: string): boolean {
  const body = fn.childForFieldName('body');
  if (!body) return true;
  for (const id of body.descendantsOfType('identifier')) {
    if (!id || id.text !== name) continue;
    for (let n: Node | null = id; n && n.id !== body.id; n = n.parent) {
      const p = n.parent;
      if (!p) break;
      if (
        (p.type === 'assignment' || p.type === 'augmented_assignment' || p.type === 'for_statement' || p.type === 'for_in_clause') &&
        p.childForFieldName('left')?.id === n.id
      )
        return true;
      if (p.type === 'named_expression' && p.childForFieldName('name')?.id === n.id) return true;
      if (p.type === 'as_pattern_target' || p.type === 'global_statement' || p.type === 'nonlocal_statement') return true;
      if (!['pattern_list', 'tuple_pattern', 'list_pattern', 'parenthesized_expression', 'tuple', 'list'].includes(p.type)) break;
    }
  }
  return false;
}

/**
 * A `@pytest.mark.parametrize` argument the assertion expects, in the row the test id names:
 * changing that row's value (one-off) contradicts the target test alone.
 */
export function parameterOf(fn: Node, param: string | undefined, nameNode: Node, asserts: { start: number; end: number }[]): Candidate['via'] {
  const name = nameNode.text;
  const params = fn.childForFieldName('parameters');
  if (!params || !kids(params).some((p) => p.type === 'identifier' && p.text === name)) return undefined;
  if (rebinds(fn, name)) return undefined;
  const value = parametrizedValue(fn, param, name);
  if (!value || !changeable(nameNode, value)) return undefined;
  return {
    statement: value,
    value,
    name: { start: nameNode.startIndex, end: nameNode.endIndex },
    readElsewhere: readOutsideAssertions(fn, name, asserts),
    kind: 'parameter',
  };
}
