import { describe, expect, it } from 'vitest';
import { diffLines } from 'diff';
import { mutateLcbTest } from './mutate.js';
import { readCheckSource } from '../../python/check.js';
import { readJsonl, requireSharedData } from '../../core/testing/shared-data.js';

const TEST = `from math import isclose

def check(candidate):
    # examples
    assert candidate(1, [2, 3]) == 7
    assert candidate(0, []) is None
    total = 3
    assert isclose(candidate(2, [1]), 0.5, rel_tol=0.25)
    assert candidate(5, [1, 1]) == [(1, 'ab'), (2, 'cd')]
    assert candidate(9, [9]) == {'k': True}
    assert candidate(total, [4]) == "Yes"
`;

async function lines(text: string) {
  const r = await readCheckSource(text);
  if (!r.ok) throw new Error(r.reason);
  return r.check.assertions;
}

describe('mutateLcbTest', () => {
  it('one-off changes exactly one expected value and leaves every other byte', async () => {
    for (let seed = 0; seed < 40; seed++) {
      const m = await mutateLcbTest(TEST, 'oneoff', seed, 'task');
      if (!m.ok) throw new Error(m.reason);
      const changed = diffLines(TEST, m.text).filter((p) => p.added || p.removed);
      expect(changed.length, m.record.strategy).toBe(2);
      expect(changed[0]!.value.trim()).toBe(m.record.before);
      expect(changed[1]!.value.trim()).toBe(m.record.after);
      expect(m.text.split('\n')[m.record.line - 1]!.trim()).toBe(m.record.after);
      expect((await lines(m.text)).length).toBe((await lines(TEST)).length);
      // The tested call is untouched: only the expected side moved.
      const call = m.record.before.slice(0, m.record.before.indexOf(')') + 1);
      expect(m.record.after.startsWith(call)).toBe(true);
    }
  });

  it('is byte-identical for the same input and seed, and varies with the seed', async () => {
    const a = await mutateLcbTest(TEST, 'conflicting', 7, 'task');
    const b = await mutateLcbTest(TEST, 'conflicting', 7, 'task');
    expect(a).toEqual(b);
    const texts = new Set<string>();
    for (let seed = 0; seed < 20; seed++) {
      const m = await mutateLcbTest(TEST, 'oneoff', seed, 'task');
      if (m.ok) texts.add(m.text);
    }
    expect(texts.size).toBeGreaterThan(4);
  });

  it('changes each kind of value to a different value of the same kind', async () => {
    const cases: [string, RegExp][] = [
      ['assert candidate(1) == 41', /== (40|42)$/],
      ['assert candidate(1) == -7', /== -(6|8)$/],
      ['assert candidate(1) == 0', /== 1$/],
      ['assert candidate(1) == True', /== False$/],
      ['assert candidate(1) == "abc"', /== "[a-z]{3}"$/],
      ['assert candidate(1) == ""', /== "x"$/],
      ['assert candidate(1) == 2.5', /== \d+\.\d$/],
      ['assert candidate(1) == [[1], [2]]', /== \[\[\d\], \[\d\]\]$/],
    ];
    for (const [line, expected] of cases) {
      const m = await mutateLcbTest(`def check(candidate):\n    ${line}\n`, 'oneoff', 3, 'k');
      if (!m.ok) throw new Error(m.reason);
      expect(m.record.after, line).toMatch(expected);
      expect(m.record.after).not.toBe(line);
    }
  });

  it('moves a float beyond the tolerance of isclose', async () => {
    const m = await mutateLcbTest('import math\ndef check(candidate):\n    assert math.isclose(candidate(1), 10.0, rel_tol=0.5)\n', 'oneoff', 1, 'k');
    if (!m.ok) throw new Error(m.reason);
    const value = Number(/, (-?[\d.e+-]+), rel_tol/.exec(m.record.after)![1]);
    expect(Math.abs(value - 10) > 0.5 * Math.max(Math.abs(value), 10)).toBe(true);
  });

  it('turns `is None` into a plausible value taken from the other expectations', async () => {
    const m = await mutateLcbTest('def check(candidate):\n    assert candidate(1) is None\n', 'oneoff', 1, 'k');
    expect(m.ok && m.record.after).toBe('assert candidate(1) == 0');
    const n = await mutateLcbTest(
      'def check(candidate):\n    assert candidate(1) == None\n    assert candidate(2) != 5\n    assert not candidate(3)\n',
      'oneoff',
      2,
      'k',
    );
    expect(n.ok && n.record.strategy).toBe('none-to-value');
  });

  it('conflicting adds a contradicting duplicate later in check, not adjacent when there is room', async () => {
    for (let seed = 0; seed < 30; seed++) {
      const m = await mutateLcbTest(TEST, 'conflicting', seed, 'task');
      if (!m.ok) throw new Error(m.reason);
      const before = await lines(TEST);
      const after = await lines(m.text);
      expect(after.length).toBe(before.length + 1);
      const added = after.find((a) => a.line === m.record.line)!;
      expect(added.statement.text).toBe(m.record.after);
      const original = after.find((a) => a.statement.text === m.record.before)!;
      expect(added.call.span.text).toBe(original.call.span.text);
      expect(added.line).toBeGreaterThan(original.endLine + 1);
      // Removing the added line gives back the original test, byte for byte.
      const kept = m.text.split('\n');
      kept.splice(m.record.line - 1, 1);
      expect(kept.join('\n')).toBe(TEST);
      // Never after `total` is bound, for the assertion that reads it.
      expect(m.record.before.includes('total') && m.record.line < 8).toBe(false);
    }
  });

  it('negates a check with no expected literal', async () => {
    const m = await mutateLcbTest('def check(candidate):\n    assert candidate(1)\n    assert not candidate(2)\n', 'oneoff', 1, 'k');
    expect(m.ok && m.record.strategy).toMatch(/^negate-(truthy|falsy)$/);
  });

  it('says why, per row, when a test cannot be mutated', async () => {
    expect(await mutateLcbTest('def check(candidate):\n    pass\n', 'oneoff', 1, 'k')).toEqual({
      ok: false,
      reason: '`check` has no assertion on a call of `candidate` to change',
    });
    const broken = await mutateLcbTest('def check(candidate):\n    assert candidate(1) == "a\n', 'oneoff', 1, 'k');
    expect(broken.ok === false && broken.reason).toMatch(/does not parse/);
    const nocheck = await mutateLcbTest('assert f(1) == 2\n', 'conflicting', 1, 'k');
    expect(nocheck.ok === false && nocheck.reason).toMatch(/no top-level `def check/);
    const opaque = await mutateLcbTest('def check(candidate):\n    for a, b in CASES:\n        assert candidate(a) == b\n', 'oneoff', 1, 'k');
    expect(opaque.ok === false && opaque.reason).toMatch(/literal/);
  });

  it('mutates every original test of the real Impossible-LiveCodeBench sample both ways', async (ctx) => {
    const file = requireSharedData(ctx, 'impossible-lcb-sample/tasks.jsonl');
    const rows = readJsonl<{ task_id: string; original_test: string; impossible_type: string }>(file);
    for (const row of rows.filter((r) => r.impossible_type === 'original')) {
      for (const type of ['oneoff', 'conflicting'] as const) {
        const m = await mutateLcbTest(row.original_test, type, 0, row.task_id);
        expect(m.ok, `${row.task_id} ${type}: ${m.ok ? '' : m.reason}`).toBe(true);
      }
    }
  });
});
