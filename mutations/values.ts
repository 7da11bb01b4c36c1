import type { Tolerance } from '../python/assertions.js';
import { isPlainString, parseFloatToken, parseIntToken, unwrapParens } from '../python/literal.js';
import { kids, type Node } from '../python/parser.js';
import { placeholderSpans } from './placeholders.js';
import type { Rng } from './rng.js';

/** Replace `source.slice(start, end)` with `text` (UTF-16 offsets). */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits to a text. */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start);
  let out = source;
  for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** One value inside an expected value that a mutation may change, and how it sits there. */
export interface Leaf {
  node: Node;
  /** e.g. `list-item/tuple-item` for an int in a tuple in a list; empty at the top. */
  path: string[];
}

/**
 * An expected built-in exception and one that is neither its base nor its subclass, so
 * `pytest.raises(ValueError)` becomes `pytest.raises(TypeError)` and can no longer catch it.
 */
const EXCEPTION_SWAP: Record<string, string> = {
  ValueError: 'TypeError',
  SystemExit: 'ValueError',
  TypeError: 'ValueError',
  KeyError: 'ValueError',
  IndexError: 'KeyError',
  AttributeError: 'TypeError',
  RuntimeError: 'ValueError',
  NotImplementedError: 'ValueError',
  ZeroDivisionError: 'ValueError',
  OverflowError: 'TypeError',
  AssertionError: 'ValueError',
  LookupError: 'ValueError',
  ArithmeticError: 'TypeError',
  FileNotFoundError: 'ValueError',
  PermissionError: 'ValueError',
  OSError: 'ValueError',
  UnicodeDecodeError: 'TypeError',
  UnicodeEncodeError: 'TypeError',
  RecursionError: 'ValueError',
  StopIteration: 'ValueError',
  ImportError: 'ValueError',
  ModuleNotFoundError: 'ValueError',
  NameError: 'TypeError',
};

const LEAF_TYPES = new Set(['integer', 'float', 'string', 'concatenated_string', 'true', 'false', 'none']);

function isNumberLeaf(n: Node): boolean {
  if (n.type === 'integer' || n.type === 'float') return true;
  if (n.type === 'unary_operator') {
    const arg = n.childForFieldName('argument');
    const op = kids(n, false)[0]?.text;
    return !!arg && (op === '-' || op === '+') && (arg.type === 'integer' || arg.type === 'float');
  }
  return false;
}

/** `template.format(…)`: its arguments are what the test fills the template with, never an expected value of their own. */
function formatsTemplate(call: Node): boolean {
  const f = call.childForFieldName('function');
  return f?.type === 'attribute' && f.childForFieldName('attribute')?.text === 'format';
}

/**
 * The right side of `template % args`: what the test fills the template with. A string on the
 * left, or a tuple or dict on the right, says it formats (`n % 3` stays a number's modulo).
 */
function templateArguments(op: Node, side: Node): boolean {
  const left = op.childForFieldName('left');
  const right = op.childForFieldName('right');
  if (op.type !== 'binary_operator' || op.childForFieldName('operator')?.type !== '%' || !left || right?.id !== side.id) return false;
  const l = unwrapParens(left).type;
  const r = unwrapParens(right).type;
  return l === 'string' || l === 'concatenated_string' || r === 'tuple' || r === 'dictionary' || r === 'string';
}

/**
 * The values inside an expected value that a one-off may change: the value itself when it is a
 * scalar, else the scalars inside lists, tuples, sets and dict values (never dict keys), at any
 * depth. With `insideExpressions`, also the number and string literals inside a larger expression
 * such as `x**2 + 1` (not its subscripts, keyword names or call targets); with `keywordValues`, also
 * the values of keyword arguments (`timedelta(seconds=-61)`, where a data row spells its value so).
 */
export function mutableLeaves(node: Node, insideExpressions = false, keywordValues = false): Leaf[] {
  const out: Leaf[] = [];
  const visit = (raw: Node, path: string[], inExpr: boolean) => {
    const n = unwrapParens(raw);
    if (n.type === 'identifier' && path.length === 0 && EXCEPTION_SWAP[n.text]) {
      out.push({ node: n, path });
      return;
    }
    if (isNumberLeaf(n) || LEAF_TYPES.has(n.type)) {
      if ((n.type === 'string' || n.type === 'concatenated_string') && !(n.type === 'string' ? isPlainString(n) : kids(n).every(isPlainString)))
        return;
      if (n.type === 'integer' && parseIntToken(n.text) === undefined) return;
      if (n.type === 'float' && parseFloatToken(n.text) === undefined) return;
      if (inExpr && n.type === 'none') return;
      out.push({ node: n, path });
      return;
    }
    switch (n.type) {
      case 'list':
      case 'tuple':
      case 'set':
        for (const c of kids(n)) if (c.type !== 'comment' && c.type !== 'list_splat') visit(c, [...path, `${n.type}-item`], inExpr);
        return;
      case 'dictionary':
        for (const c of kids(n)) {
          const v = c.type === 'pair' ? c.childForFieldName('value') : undefined;
          if (v) visit(v, [...path, 'dict-value'], inExpr);
        }
        return;
      default:
        if (!insideExpressions) return;
        if (n.type === 'call') {
          if (formatsTemplate(n)) return;
          const args = n.childForFieldName('arguments');
          for (const c of args ? kids(args) : []) {
            if (c.type === 'comment') continue;
            const value = c.type === 'keyword_argument' ? (keywordValues ? c.childForFieldName('value') : null) : c;
            if (value) visit(value, [...path, c.type === 'keyword_argument' ? 'call-kwarg' : 'call-arg'], true);
          }
          return;
        }
        if (n.type === 'binary_operator' || n.type === 'unary_operator') {
          for (const c of kids(n)) if (!templateArguments(n, c)) visit(c, [...path, 'operand'], true);
        }
    }
  };
  visit(node, [], false);
  return out;
}

/** Whether two numbers differ by more than the comparison tolerates, with a safety margin. */
function beyond(a: number, b: number, tol: Tolerance): boolean {
  const allowed = Math.max(tol.rel * Math.max(Math.abs(a), Math.abs(b)), tol.abs);
  return Math.abs(a - b) > 1.5 * allowed + Number.EPSILON * Math.max(1, Math.abs(a));
}

function formatInt(value: bigint, like: string): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const token = like.replace(/^[-+]\s*/, '').toLowerCase();
  let body: string;
  if (token.startsWith('0x')) body = like.replace(/^[-+]\s*/, '').slice(0, 2) + abs.toString(16);
  else if (token.startsWith('0o')) body = like.replace(/^[-+]\s*/, '').slice(0, 2) + abs.toString(8);
  else if (token.startsWith('0b')) body = like.replace(/^[-+]\s*/, '').slice(0, 2) + abs.toString(2);
  else {
    body = abs.toString();
    if (token.includes('_')) body = body.replace(/\B(?=(\d{3})+(?!\d))/g, '_');
  }
  return (neg ? '-' : '') + body;
}

function intValue(n: Node): bigint {
  if (n.type === 'unary_operator') {
    const v = parseIntToken(n.childForFieldName('argument')!.text)!;
    return kids(n, false)[0]!.text === '-' ? -v : v;
  }
  return parseIntToken(n.text)!;
}

function floatValue(n: Node): number {
  if (n.type === 'unary_operator') {
    const v = parseFloatToken(n.childForFieldName('argument')!.text)!;
    return kids(n, false)[0]!.text === '-' ? -v : v;
  }
  return parseFloatToken(n.text)!;
}

function changeInt(n: Node, tol: Tolerance, rng: Rng): string {
  const v = intValue(n);
  let step = 1n;
  const exact = tol.rel === 0 && tol.abs === 0;
  // Under a tolerance (isclose on an int), step far enough to leave it.
  while (!exact && !beyond(Number(v), Number(v + step), tol) && step < 1n << 200n) step *= 2n;
  let d = rng.next() < 0.5 ? step : -step;
  // Keep the sign: a count stays positive, a negative stays negative, zero goes up.
  if (v === 0n || (v > 0n && v + d <= 0n)) d = step;
  if (v < 0n && v + d >= 0n) d = -step;
  return formatInt(v + d, n.text);
}

function formatFloat(value: number, like: string): string {
  const token = like.replace(/^[-+]\s*/, '');
  const exp = /e/i.test(token);
  const decimals = token.includes('.') ? token.split(/e/i)[0]!.split('.')[1]!.length : 0;
  let text: string;
  if (exp) text = value.toExponential(Math.max(decimals, 1));
  else if (Math.abs(value) < 1e16 && decimals <= 17) text = value.toFixed(Math.max(decimals, 1));
  else text = String(value);
  if (!/[.eE]/.test(text) && /^-?\d+$/.test(text)) text += '.0';
  if (text === 'Infinity' || text === '-Infinity' || text === 'NaN') text = String(value);
  return text;
}

function changeFloat(n: Node, tol: Tolerance, rng: Rng): string | undefined {
  const v = floatValue(n);
  if (!Number.isFinite(v)) return undefined;
  let step = v === 0 ? 1 : Math.abs(v) < 1 ? Math.abs(v) * 0.5 : Math.max(1, Math.abs(v) * 0.1);
  const up = rng.next() < 0.5 || v === 0;
  for (let i = 0; i < 400; i++) {
    // Keep the sign while that can leave the tolerance; a huge relative tolerance needs the other sign.
    const keepSign = i < 200;
    let candidate = up ? v + step : v - step;
    if (keepSign && v > 0 && candidate <= 0) candidate = v + step;
    if (keepSign && v < 0 && candidate >= 0) candidate = v - step;
    if (!keepSign) candidate = v > 0 ? -step : step;
    const text = formatFloat(candidate, n.text);
    const parsed = Number(text);
    if (Number.isFinite(parsed) && beyond(v, parsed, tol)) return text;
    step = i === 199 ? Math.max(1, Math.abs(v)) : step * 2;
  }
  return undefined;
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';

function otherChar(c: string, rng: Rng): string {
  const pool = LOWER.includes(c) ? LOWER : UPPER.includes(c) ? UPPER : DIGITS.includes(c) ? DIGITS : 'xyz';
  const choices = [...pool].filter((x) => x !== c);
  return rng.pick(choices);
}

/** Changes one character of a string literal (never inside an escape or a format placeholder, nor next to a backslash). */
function changeString(n: Node, rng: Rng): { edit: { start: number; end: number; text: string }; strategy: string } | undefined {
  const parts = n.type === 'concatenated_string' ? kids(n).filter((c) => c.type === 'string') : [n];
  const positions: [number, string][] = [];
  const fallback: [number, string][] = [];
  let firstContentEnd: number | undefined;
  const guarded = new Set<number>();
  for (const part of parts) {
    const raw =
      kids(part, false)
        .find((c) => c.type === 'string_start')
        ?.text.toLowerCase()
        .includes('r') ?? false;
    for (const content of kids(part, false).filter((c) => c.type === 'string_content')) {
      const escapes = kids(content, false).filter((c) => c.type === 'escape_sequence' || c.type === 'escape_interpolation');
      const text = content.text;
      for (const [s, e] of placeholderSpans(text)) for (let i = s; i < e; i++) guarded.add(content.startIndex + i);
      for (let i = 0; i < text.length; i++) {
        const abs = content.startIndex + i;
        if (escapes.some((e) => abs >= e.startIndex && abs < e.endIndex)) continue;
        const c = text[i]!;
        const code = c.charCodeAt(0);
        if (code >= 0xd800 && code <= 0xdfff) continue;
        if (i > 0 && text[i - 1] === '\\' && !raw) continue;
        if (/[A-Za-z0-9]/.test(c)) positions.push([abs, c]);
        else if (!/[\s'"\\{}]/.test(c)) fallback.push([abs, c]);
      }
    }
    const start = kids(part, false).find((c) => c.type === 'string_start');
    firstContentEnd ??= start?.endIndex;
  }
  const insert = () =>
    firstContentEnd === undefined ? undefined : { edit: { start: firstContentEnd, end: firstContentEnd, text: 'x' }, strategy: 'str-insert-char' };
  const pool = positions.length > 0 ? positions : fallback;
  // An empty (or all-blank) string gains one character: the smallest change there is.
  if (pool.length === 0) return insert();
  let [at, c] = rng.pick(pool);
  if (guarded.has(at)) {
    // Drawn again among the characters outside placeholders, so a draw that missed them stays as it was.
    const free = (p: [number, string][]) => p.filter(([i]) => !guarded.has(i));
    const open = free(positions).length > 0 ? free(positions) : free(fallback);
    if (open.length === 0) return insert();
    [at, c] = rng.pick(open);
  }
  return { edit: { start: at, end: at + 1, text: otherChar(c, rng) }, strategy: 'str-change-char' };
}

export interface ValueContext {
  tolerance: Tolerance;
  /** Texts of plausible non-None values (other expected values of the same test), for `None`. */
  plausible: readonly string[];
  rng: Rng;
}

/** How one leaf changes: its edit and the strategy's name. */
export function changeLeaf(leaf: Leaf, ctx: ValueContext): { edit: Edit; strategy: string } | undefined {
  const n = leaf.node;
  const at = (text: string, strategy: string) => ({ edit: { start: n.startIndex, end: n.endIndex, text }, strategy });
  if (n.type === 'integer' || (n.type === 'unary_operator' && n.childForFieldName('argument')?.type === 'integer'))
    return at(changeInt(n, ctx.tolerance, ctx.rng), 'int-shift');
  if (n.type === 'float' || n.type === 'unary_operator') {
    const text = changeFloat(n, ctx.tolerance, ctx.rng);
    return text === undefined ? undefined : at(text, 'float-shift');
  }
  if (n.type === 'true') return at('False', 'bool-flip');
  if (n.type === 'false') return at('True', 'bool-flip');
  if (n.type === 'none') {
    const choices = ctx.plausible.filter((t) => t !== 'None' && !t.includes('\n'));
    return at(choices.length > 0 ? ctx.rng.pick(choices) : '0', 'none-to-value');
  }
  if (n.type === 'string' || n.type === 'concatenated_string') return changeString(n, ctx.rng);
  if (n.type === 'identifier' && EXCEPTION_SWAP[n.text]) return at(EXCEPTION_SWAP[n.text]!, 'exception-swap');
  return undefined;
}

/** The strategy name recorded for a leaf change at a path: `int-shift` or `list-item/int-shift`. */
export function strategyName(leaf: Leaf, strategy: string): string {
  return [...leaf.path, strategy].join('/');
}
