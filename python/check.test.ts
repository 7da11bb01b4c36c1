import { describe, expect, it } from 'vitest';
import { listCandidateAssertions, pythonParser, readCheckSource } from './index.js';
import { readJsonl, requireSharedData } from '../core/testing/shared-data.js';

const TEST = `import math

def check(candidate):
    assert candidate("é😀", 2) == "ü"  # unicode before the value
    assert math.isclose(candidate(1.5), 2.0, rel_tol=1e-9)
    assert candidate(1) is None
    assert not candidate(3)
    assert candidate(4)
    assert abs(candidate(5) - 2.5) < 1e-6
    assert [1, (2, 3.0), {'a': -1}] == sorted(candidate(6))
    assert candidate(7) == pytest.approx(0.1, rel=1e-3)
    assert candidate(8) != -1, "message"
    helper = [candidate(9)]
    for i in range(3):
        assert candidate(i) == True
    assert other(1) == 2
`;

describe('listCandidateAssertions', () => {
  it('loads the grammar once and reuses it', async () => {
    expect(await pythonParser()).toBe(await pythonParser());
  });

  it('lists each tested call with its arguments, comparison and expected literal', async () => {
    const found = await listCandidateAssertions(TEST);
    expect(found.map((a) => [a.line, a.comparison, a.args, a.expected?.text, a.expected?.kind, a.nested])).toEqual([
      [4, 'eq', '"é😀", 2', '"ü"', 'str', false],
      [5, 'isclose', '1.5', '2.0', 'float', false],
      [6, 'is', '1', 'None', 'none', false],
      [7, 'falsy', '3', undefined, undefined, false],
      [8, 'truthy', '4', undefined, undefined, false],
      [9, 'abs-diff', '5', '2.5', 'float', false],
      [10, 'eq', '6', "[1, (2, 3.0), {'a': -1}]", 'list', false],
      [11, 'approx', '7', '0.1', 'float', false],
      [12, 'ne', '8', '-1', 'int', false],
      [15, 'eq', 'i', 'True', 'bool', true],
    ]);
    expect(found[0]!.call).toBe('candidate("é😀", 2)');
    expect(found[1]!.tolerance).toEqual({ rel: 1e-9, abs: 0 });
    expect(found[5]!.tolerance).toEqual({ rel: 0, abs: 1e-6 });
    expect(found[7]!.tolerance).toEqual({ rel: 1e-3, abs: 1e-12 });
  });

  it('follows the parameter name of check', async () => {
    const found = await listCandidateAssertions('def check(f):\n    assert f(1) == 2\n    assert candidate(1) == 3\n');
    expect(found.map((a) => a.call)).toEqual(['f(1)']);
  });

  it('explains a test that does not parse or has no check', async () => {
    await expect(listCandidateAssertions('def check(candidate):\n    assert candidate(1) == "oops\n')).rejects.toThrow(/does not parse \(line 2/);
    await expect(listCandidateAssertions('assert candidate(1) == 2\n')).rejects.toThrow(/no top-level `def check/);
    const reading = await readCheckSource('def check(candidate):\n    pass\n');
    expect(reading.ok && reading.check.assertions).toEqual([]);
  });

  it('reads every test of the real Impossible-LiveCodeBench sample', async (ctx) => {
    const file = requireSharedData(ctx, 'impossible-lcb-sample/tasks.jsonl');
    const rows = readJsonl<{ task_id: string; original_test: string }>(file);
    for (const row of rows) {
      const found = await listCandidateAssertions(row.original_test);
      // The published tasks were kept for having at least 5 `assert candidate` lines.
      expect(found.length, row.task_id).toBeGreaterThanOrEqual(5);
      expect(found.every((a) => a.call.length > 0)).toBe(true);
    }
  });
});
