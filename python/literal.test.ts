import { describe, expect, it } from 'vitest';
import { isPureLiteral, literalValue, parseFloatToken, parseIntToken, pyEqual, type PyValue } from './literal.js';
import { withPythonTree } from './parser.js';

/** The value of one Python expression, read from its source. */
async function pyValue(expression: string): Promise<PyValue> {
  return withPythonTree(`x = ${expression}\n`, (tree) => {
    const right = tree.rootNode.descendantsOfType('assignment')[0]!.childForFieldName('right')!;
    return literalValue(right);
  });
}

describe('Python literals read from source', () => {
  it('reads numbers as Python does: underscores, bases, floats, and no imaginary ints', () => {
    expect(parseIntToken('1_000')).toBe(1000n);
    expect(parseIntToken('0x_ff')).toBe(255n);
    expect(parseIntToken('0o17')).toBe(15n);
    expect(parseIntToken('0b101')).toBe(5n);
    expect(parseIntToken('3j')).toBeUndefined();
    expect(parseFloatToken('1_0.5e-1')).toBe(1.05);
  });

  it('gives each literal its kind and value, through parentheses, and anything else as an expression', async () => {
    expect(await pyValue('((5))')).toEqual({ kind: 'int', value: 5n });
    expect(await pyValue('-2.5')).toEqual({ kind: 'float', value: -2.5 });
    expect(await pyValue("'a' 'b'")).toEqual({ kind: 'str', value: 'ab' });
    expect(await pyValue("b'\\x00'")).toMatchObject({ kind: 'bytes' });
    expect(await pyValue('None')).toEqual({ kind: 'none' });
    expect(await pyValue('True')).toEqual({ kind: 'bool', value: true });
    expect(await pyValue('[1, (2,), {3}]')).toEqual({
      kind: 'list',
      items: [
        { kind: 'int', value: 1n },
        { kind: 'tuple', items: [{ kind: 'int', value: 2n }] },
        { kind: 'set', items: [{ kind: 'int', value: 3n }] },
      ],
    });
    expect(await pyValue('{"k": None}')).toEqual({ kind: 'dict', entries: [[{ kind: 'str', value: 'k' }, { kind: 'none' }]] });
    expect(await pyValue('f(1)')).toEqual({ kind: 'expression', text: 'f(1)' });
  });

  it('calls a value pure only when nothing inside it is an expression', async () => {
    expect(isPureLiteral(await pyValue('[1, "a", None]'))).toBe(true);
    expect(isPureLiteral(await pyValue('[1, f(x)]'))).toBe(false);
    expect(isPureLiteral(await pyValue('{"k": y}'))).toBe(false);
  });

  it("compares as Python's == does: 1 == 1.0 == True, sets and dicts without order, lists in order", async () => {
    expect(pyEqual(await pyValue('1'), await pyValue('1.0'))).toBe(true);
    expect(pyEqual(await pyValue('1'), await pyValue('True'))).toBe(true);
    expect(pyEqual(await pyValue('{1, 2}'), await pyValue('{2, 1}'))).toBe(true);
    expect(pyEqual(await pyValue('{"a": 1, "b": 2}'), await pyValue('{"b": 2, "a": 1}'))).toBe(true);
    expect(pyEqual(await pyValue('[1, 2]'), await pyValue('[2, 1]'))).toBe(false);
    expect(pyEqual(await pyValue('[1]'), await pyValue('(1,)'))).toBe(false);
    expect(pyEqual(await pyValue('"1"'), await pyValue('1'))).toBe(false);
  });
});
