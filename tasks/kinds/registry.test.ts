import { describe, expect, it } from 'vitest';
import { gradingContract, gradingContractData } from '../env/contract.js';
import { loadBuiltinLcb } from '../suites/lcb.js';
import type { Task } from '../task.js';
import { kindOfRow, registerTaskKind, taskKind, taskKindNames } from './registry.js';

const patch = 'diff --git a/t/test_a.py b/t/test_a.py\n--- a/t/test_a.py\n+++ b/t/test_a.py\n@@ -1 +1 @@\n-a\n+b\n';
const sweRow = {
  instance_id: 'django__django-1',
  repo: 'django/django',
  base_commit: 'a'.repeat(40),
  version: '4.2',
  patch,
  test_patch: patch,
  problem_statement: 'It is broken.',
  FAIL_TO_PASS: ['t/test_a.py::test_x'],
  PASS_TO_PASS: [],
};

function sweTask(): Task {
  const made = kindOfRow(sweRow)!.rowToTask(sweRow, { source: 'rows.jsonl' });
  if (!made.ok) throw new Error(JSON.stringify(made.problems));
  return made.task;
}

describe('the task kind registry', () => {
  it('knows each row format by its identifying fields, the more specific first', () => {
    expect(kindOfRow(sweRow)?.name).toBe('swe');
    expect(kindOfRow({ task_id: 'x', entry_point: 'f' })?.name).toBe('lcb');
    expect(kindOfRow({ instance_id: 'x', task_id: 'y' })?.name).toBe('swe');
    expect(kindOfRow({ name: 'x' })).toBeUndefined();
    expect(kindOfRow([1])).toBeUndefined();
  });

  it("makes a task's grading contract once, as plain data that prints and compares", async () => {
    const [lcb] = await loadBuiltinLcb();
    for (const task of [lcb!, sweTask()]) {
      const contract = gradingContract(task);
      expect(gradingContract(task)).toBe(contract);
      // No closures: a JSON round trip gives the same value.
      expect(JSON.parse(JSON.stringify(contract))).toEqual(contract);
      expect(gradingContractData(task)).toEqual(gradingContractData(structuredClone(task)));
    }
    expect(gradingContractData(sweTask())).toMatchObject({ kind: 'swe', limits: '2 CPUs, 4096 MiB', failToPass: ['t/test_a.py::test_x'] });
  });

  it('takes a kind a caller adds, refuses a second of the same name, and names the known ones for an unknown one', () => {
    const toy = { ...taskKind('lcb'), name: 'toy', recognizes: (row: object) => 'toy_id' in row };
    const undo = registerTaskKind(toy);
    try {
      expect(taskKindNames()).toEqual(['lcb', 'swe', 'toy']);
      expect(kindOfRow({ toy_id: 1 })?.name).toBe('toy');
      expect(() => registerTaskKind(toy)).toThrow(/registered already/);
    } finally {
      undo();
    }
    expect(() => taskKind('toy')).toThrow(/unknown task kind "toy"/);
  });
});
