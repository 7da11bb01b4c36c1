import { calleeName } from '../../python/assertions.js';
import { unwrapParens } from '../../python/literal.js';
import { kids, type Node } from '../../python/parser.js';

/** Values whose pytest id is the argument name and the row's index, so changing them keeps every id. */
export const INDEXED = new Set(['list', 'tuple', 'dictionary', 'set']);

/** Escapes whose source spelling is the one pytest prints in an id (it escapes the value back). */
const SELF_SPELLED = new Set(['\\\\', '\\n', '\\t', '\\r']);

export function plainString(n: Node): string | undefined {
  if (n.type === 'concatenated_string') {
    const parts = kids(n).map(plainString);
    return parts.every((p): p is string => p !== undefined) ? parts.join('') : undefined;
  }
  if (n.type !== 'string') return undefined;
  const parts = kids(n, false);
  const start = parts.find((c) => c.type === 'string_start')?.text ?? '';
  if (/[bfru]/i.test(start)) return undefined;
  const escapes = n.descendantsOfType('escape_sequence').filter((e): e is Node => !!e);
  if (parts.some((c) => c.type === 'interpolation' || c.type === 'escape_interpolation') || escapes.some((e) => !SELF_SPELLED.has(e.text)))
    return undefined;
  const text = parts
    .filter((c) => c.type === 'string_content')
    .map((c) => c.text)
    .join('');
  // pytest escapes non-ASCII and control characters in ids: leave those rows unread.
  return /^[\x20-\x7e]*$/.test(text) ? text : undefined;
}

/** The id pytest gives one value of a row, when it can be told from the source alone. */
export function idOf(value: Node, argname: string, index: number): string | undefined {
  const n = unwrapParens(value);
  if (INDEXED.has(n.type)) return `${argname}${index}`;
  if (n.type === 'integer' && /^-?[0-9]+$/.test(n.text)) return n.text;
  if (n.type === 'unary_operator' && /^-\s*[0-9]+$/.test(n.text)) return n.text.replace(/\s+/g, '');
  if (n.type === 'true' || n.type === 'false' || n.type === 'none') return n.text;
  return plainString(n);
}

/** `argnames` as pytest reads it: `"a, b"`, `"a,b"`, or a list/tuple of names. */
function argnamesOf(node: Node): string[] | undefined {
  const n = unwrapParens(node);
  const one = plainString(n);
  if (one !== undefined)
    return one
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  if (n.type !== 'list' && n.type !== 'tuple') return undefined;
  const names = kids(n)
    .filter((c) => c.type !== 'comment')
    .map((c) => plainString(c));
  return names.every((x): x is string => x !== undefined) ? names : undefined;
}

export function isParametrize(decorator: Node): Node | undefined {
  const call = kids(decorator).find((c) => c.type === 'call');
  if (!call) return undefined;
  const fn = call.childForFieldName('function');
  return fn?.type === 'attribute' && calleeName(call) === 'parametrize' && fn.text.replace(/\s+/g, '').endsWith('mark.parametrize')
    ? call
    : undefined;
}

/**
 * The value one parameter takes in the row of `@pytest.mark.parametrize` that a test id's
 * `[param]` names: the target test's own expectation. Only the plain case is read: one
 * parametrize decorator without `ids=`, rows whose ids all follow from the source and are
 * distinct, and a value that pytest names by its index (a list, tuple, dict or set), so that
 * changing it keeps the id the row is run under.
 */
export function parametrizedValue(fn: Node, param: string | undefined, name: string): Node | undefined {
  if (param === undefined) return undefined;
  const decorated = fn.parent;
  if (decorated?.type !== 'decorated_definition') return undefined;
  const calls = kids(decorated)
    .filter((c) => c.type === 'decorator')
    .map(isParametrize);
  const marks = calls.filter((c): c is Node => !!c);
  if (marks.length !== 1) return undefined;
  const list = marks[0]!.childForFieldName('arguments');
  if (!list) return undefined;
  const args = kids(list).filter((c) => c.type !== 'comment');
  // `ids=` renames rows and `indirect=` hands the value to a fixture: neither is read.
  if (args.some((a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text !== 'scope')) return undefined;
  const [namesNode, valuesNode] = args;
  if (!namesNode || !valuesNode || namesNode.type === 'keyword_argument') return undefined;
  const names = argnamesOf(namesNode);
  const at = names?.indexOf(name) ?? -1;
  if (!names || at < 0) return undefined;
  const table = unwrapParens(valuesNode);
  if (table.type !== 'list' && table.type !== 'tuple') return undefined;
  const rows = kids(table).filter((c) => c.type !== 'comment');
  const ids: (string | undefined)[] = [];
  const values: (Node | undefined)[] = [];
  rows.forEach((row, index) => {
    let items: Node[];
    let explicit: string | undefined;
    let r = unwrapParens(row);
    if (r.type === 'call' && calleeName(r) === 'param') {
      const rl = r.childForFieldName('arguments');
      const parts = rl ? kids(rl).filter((c) => c.type !== 'comment') : [];
      items = parts.filter((c) => c.type !== 'keyword_argument');
      const id = parts.find((c) => c.type === 'keyword_argument' && c.childForFieldName('name')?.text === 'id')?.childForFieldName('value');
      explicit = id ? plainString(id) : undefined;
      if (id && explicit === undefined) items = [];
      if (names.length === 1 && items.length === 1) r = items[0]!;
    } else items = names.length === 1 ? [r] : r.type === 'tuple' || r.type === 'list' ? kids(r).filter((c) => c.type !== 'comment') : [];
    if (items.length !== names.length || items.some((i) => i.type === 'list_splat' || i.type === 'dictionary_splat')) {
      ids.push(undefined);
      values.push(undefined);
      return;
    }
    const parts = items.map((v, i) => idOf(v, names[i]!, index));
    ids.push(explicit ?? (parts.every((p) => p !== undefined) ? parts.join('-') : undefined));
    values.push(items[at]);
  });
  if (ids.some((id) => id === undefined) || new Set(ids).size !== ids.length) return undefined;
  const value = values[ids.indexOf(param)];
  // Changing a value named by its content would rename the test; an index-named one keeps its id.
  return value && INDEXED.has(unwrapParens(value).type) ? value : undefined;
}
