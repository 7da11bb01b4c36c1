import { kids, type Node } from '../../python/parser.js';

/**
 * Whether a statement is itself an expectation rather than a run of the code under test: an
 * `assert`, or a call to an assertion helper. Making such a statement "expect an error" states
 * nothing about the code: a helper that raises on its own check is no contradiction of the spec.
 */

/** Names that say a function checks rather than does: `assertOptimizesTo`, `check_output_is`, `_verify`. */
export const HELPER_NAME = /^_*(assert|check|verify)/i;

/** The name a call is made by: `f` in `f(x)`, `g` in `self.a.g(x)`. */
function calleeName(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type === 'identifier') return fn.text;
  if (fn?.type === 'attribute') return fn.childForFieldName('attribute')?.text;
  return undefined;
}

/** Whether a function body asserts: an `assert`, a helper-named call, or `fail(...)`. */
function bodyAsserts(def: Node): boolean {
  const body = def.childForFieldName('body');
  if (!body) return false;
  if (body.descendantsOfType('assert_statement').length > 0) return true;
  return body.descendantsOfType('call').some((c) => {
    const name = c ? calleeName(c) : undefined;
    return !!name && (HELPER_NAME.test(name) || name === 'fail');
  });
}

/** The functions defined directly in a block, by name. */
function definitionsIn(block: Node | null | undefined): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const k of block ? kids(block) : []) {
    const def = k.type === 'decorated_definition' ? k.childForFieldName('definition') : k;
    const name = def?.type === 'function_definition' ? def.childForFieldName('name')?.text : undefined;
    if (def && name) out.set(name, def);
  }
  return out;
}

/** The function a call reaches that the file shows: a method of the test's class (`self.x()`), or a function of the file (`x()`). */
function definitionOf(call: Node, fn: Node): Node | undefined {
  const callee = call.childForFieldName('function');
  const object = callee?.type === 'attribute' ? callee.childForFieldName('object')?.text : undefined;
  const name = calleeName(call);
  if (!name || (callee?.type === 'attribute' && object !== 'self' && object !== 'cls')) return undefined;
  for (let p = fn.parent; p; p = p.parent) {
    if (callee?.type === 'attribute' && p.type === 'class_definition') return definitionsIn(p.childForFieldName('body')).get(name);
    if (callee?.type === 'identifier' && p.type === 'module') return definitionsIn(p).get(name);
  }
  return undefined;
}

/**
 * Why `s` is an expectation, or undefined when it only runs code: it is an `assert`, or calls an
 * assertion helper (by its name, or a function the file shows whose body asserts).
 */
export function assertsItself(s: Node, fn: Node): string | undefined {
  if (s.type === 'assert_statement' || s.descendantsOfType('assert_statement').length > 0) return 'is an assert statement';
  for (const call of s.descendantsOfType('call')) {
    const name = call ? calleeName(call) : undefined;
    if (!call || !name) continue;
    if (HELPER_NAME.test(name)) return `calls the assertion helper \`${name}\``;
    const def = definitionOf(call, fn);
    if (def && def.id !== fn.id && bodyAsserts(def)) return `calls \`${name}\`, whose body asserts`;
  }
  return undefined;
}
