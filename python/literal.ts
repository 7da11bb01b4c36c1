import { kids, type Node } from './parser.js';

/** The literal kinds a Python expression can have; `expression` is anything that is not a literal. */
export type LiteralKind = 'int' | 'float' | 'str' | 'bytes' | 'bool' | 'none' | 'list' | 'tuple' | 'set' | 'dict' | 'expression';

/** A Python value read from source, with enough structure to compare two values as Python would. */
export type PyValue =
  | { kind: 'int'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'str' | 'bytes'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'none' }
  | { kind: 'list' | 'tuple' | 'set'; items: PyValue[] }
  | { kind: 'dict'; entries: [PyValue, PyValue][] }
  | { kind: 'expression'; text: string };

/** Strips redundant parentheses: `((5))` is the literal 5. */
export function unwrapParens(node: Node): Node {
  let n = node;
  while (n.type === 'parenthesized_expression') {
    const inner = kids(n).filter((c) => c.type !== 'comment');
    if (inner.length !== 1) break;
    n = inner[0]!;
  }
  return n;
}

/** Python's int() of a literal token: underscores, 0x/0o/0b prefixes. Undefined for imaginary literals. */
export function parseIntToken(text: string): bigint | undefined {
  const t = text.replace(/_/g, '').toLowerCase();
  if (t.endsWith('j') || t.endsWith('l')) return undefined;
  try {
    if (/^0[xob]/.test(t)) return BigInt(t);
    return BigInt(t.replace(/^0+(?=\d)/, ''));
  } catch {
    return undefined;
  }
}

export function parseFloatToken(text: string): number | undefined {
  const t = text.replace(/_/g, '');
  if (/[jJ]$/.test(t)) return undefined;
  const v = Number(t);
  return Number.isNaN(v) ? undefined : v;
}

/** The prefix letters of a string literal (`rb`, `f`, ...), lower-cased. */
export function stringPrefix(node: Node): string {
  const start = kids(node, false).find((c) => c.type === 'string_start');
  return (start?.text ?? '').replace(/['"]/g, '').toLowerCase();
}

/** Whether a string node is a plain literal: no f-string interpolation. */
export function isPlainString(node: Node): boolean {
  return node.descendantsOfType('interpolation').length === 0;
}

function stringBody(node: Node): string {
  return kids(node, false)
    .filter((c) => c.type === 'string_content')
    .map((c) => c.text)
    .join('');
}

/** Reads a literal expression into a value; anything that is not a literal becomes `expression`. */
export function literalValue(node: Node): PyValue {
  const n = unwrapParens(node);
  const expr: PyValue = { kind: 'expression', text: n.text };
  switch (n.type) {
    case 'integer': {
      const v = parseIntToken(n.text);
      return v === undefined ? expr : { kind: 'int', value: v };
    }
    case 'float': {
      const v = parseFloatToken(n.text);
      return v === undefined ? expr : { kind: 'float', value: v };
    }
    case 'true':
      return { kind: 'bool', value: true };
    case 'false':
      return { kind: 'bool', value: false };
    case 'none':
      return { kind: 'none' };
    case 'string': {
      if (!isPlainString(n)) return expr;
      return { kind: stringPrefix(n).includes('b') ? 'bytes' : 'str', value: stringBody(n) };
    }
    case 'concatenated_string': {
      const parts = kids(n).filter((c) => c.type === 'string');
      if (!parts.every(isPlainString)) return expr;
      const bytes = parts.some((p) => stringPrefix(p).includes('b'));
      return { kind: bytes ? 'bytes' : 'str', value: parts.map(stringBody).join('') };
    }
    case 'unary_operator': {
      const op = kids(n, false)[0]?.text;
      const arg = n.childForFieldName('argument');
      if (!arg || (op !== '-' && op !== '+')) return expr;
      const v = literalValue(arg);
      if (v.kind === 'int') return { kind: 'int', value: op === '-' ? -v.value : v.value };
      if (v.kind === 'float') return { kind: 'float', value: op === '-' ? -v.value : v.value };
      return expr;
    }
    case 'list':
    case 'tuple':
    case 'set': {
      const items = kids(n).filter((c) => c.type !== 'comment');
      if (items.some((c) => c.type === 'list_splat' || c.type === 'yield')) return expr;
      return { kind: n.type, items: items.map(literalValue) };
    }
    case 'dictionary': {
      const entries: [PyValue, PyValue][] = [];
      for (const c of kids(n)) {
        if (c.type === 'comment') continue;
        if (c.type !== 'pair') return expr;
        const k = c.childForFieldName('key');
        const v = c.childForFieldName('value');
        if (!k || !v) return expr;
        entries.push([literalValue(k), literalValue(v)]);
      }
      return { kind: 'dict', entries };
    }
    default:
      return expr;
  }
}

export function literalKind(node: Node): LiteralKind {
  return literalValue(node).kind;
}

/** A literal with no `expression` anywhere inside it. */
export function isPureLiteral(v: PyValue): boolean {
  switch (v.kind) {
    case 'expression':
      return false;
    case 'list':
    case 'tuple':
    case 'set':
      return v.items.every(isPureLiteral);
    case 'dict':
      return v.entries.every(([k, x]) => isPureLiteral(k) && isPureLiteral(x));
    default:
      return true;
  }
}

function numeric(v: PyValue): number | bigint | undefined {
  if (v.kind === 'int') return v.value;
  if (v.kind === 'float') return v.value;
  if (v.kind === 'bool') return v.value ? 1n : 0n;
  return undefined;
}

/**
 * Python's `==` between two literal values (1 == 1.0 == True; lists compare in order, sets and
 * dicts without). Expressions compare by their source text, which is a safe "maybe equal".
 */
export function pyEqual(a: PyValue, b: PyValue): boolean {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    if (typeof na === 'bigint' && typeof nb === 'bigint') return na === nb;
    return Number(na) === Number(nb);
  }
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'none':
      return true;
    case 'str':
    case 'bytes':
      return a.value === (b as typeof a).value;
    case 'expression':
      return a.text === (b as typeof a).text;
    case 'list':
    case 'tuple': {
      const bi = (b as typeof a).items;
      return a.items.length === bi.length && a.items.every((x, i) => pyEqual(x, bi[i]!));
    }
    case 'set': {
      const bi = (b as typeof a).items;
      const has = (xs: PyValue[], y: PyValue) => xs.some((x) => pyEqual(x, y));
      return a.items.every((x) => has(bi, x)) && bi.every((y) => has(a.items, y));
    }
    case 'dict': {
      const be = (b as typeof a).entries;
      const lookup = (es: [PyValue, PyValue][], k: PyValue) => es.findLast(([key]) => pyEqual(key, k))?.[1];
      const keysA = a.entries.map(([k]) => k);
      const keysB = be.map(([k]) => k);
      if (!keysA.every((k) => keysB.some((x) => pyEqual(x, k))) || !keysB.every((k) => keysA.some((x) => pyEqual(x, k)))) return false;
      return keysA.every((k) => {
        const va = lookup(a.entries, k);
        const vb = lookup(be, k);
        return va !== undefined && vb !== undefined && pyEqual(va, vb);
      });
    }
    default:
      return false;
  }
}
