import { describe, expect, it } from 'vitest';
import { assertionAtLine, testedCalls, topLevelFunction } from './python.js';

const TEST = `def check(candidate):
    assert candidate(2) == 4
    assert candidate(x=[1, 2]) == [
        1,
    ]
    assert 9 == candidate(3)
    assert candidate(5) != 1
    assert candidate(2) == 5
`;

describe('testedCalls', () => {
  it('reads the input and expected value of each == assertion on candidate, in order', () => {
    expect(testedCalls(TEST).map(({ line, args, expected }) => ({ line, args, expected }))).toEqual([
      { line: 2, args: '(2)', expected: '4' },
      { line: 3, args: '(x=[1, 2])', expected: '[\n        1,\n    ]' },
      { line: 6, args: '(3)', expected: '9' },
      { line: 8, args: '(2)', expected: '5' },
    ]);
  });

  it('finds the whole assert statement covering a line', () => {
    expect(assertionAtLine(TEST, 4)).toBe('assert candidate(x=[1, 2]) == [\n        1,\n    ]');
    expect(assertionAtLine(TEST, 1)).toBeNull();
  });
});

describe('topLevelFunction', () => {
  it('returns the last top-level definition of a name, decorators included, and ignores nested ones', () => {
    const src = 'def check(c):\n    return 1\n\nclass K:\n    def check(self):\n        pass\n\n@deco\ndef check(candidate):\n    pass\n';
    expect(topLevelFunction(src, 'check')).toBe('@deco\ndef check(candidate):\n    pass');
    expect(topLevelFunction('x = 1\n', 'check')).toBeNull();
  });
});
