import { describe, expect, it } from 'vitest';
import type { Task } from '../../tasks/task.js';
import type { Variant } from '../../core/record.js';
import { parseExperiment } from '../settings/config.js';
import { expandMatrix, promptKey, sampleId, selectTaskIds, shuffled, type DatasetTasks } from './matrix.js';

function lcb(id: string, variant: Variant): Task {
  return {
    kind: 'lcb',
    id,
    variant,
    source: 'test',
    prompt: 'def f(x):\n    """"""\n',
    entryPoint: 'f',
    test: 'def check(candidate):\n    assert candidate(1) == 1\n',
    originalTest: '',
  };
}

function dataset(ids: string[], splits: Variant[]): DatasetTasks {
  return new Map(splits.map((s) => [s, ids.map((id) => lcb(id, s))]));
}

describe('matrix expansion', () => {
  it('multiplies every axis and keys each sample uniquely', () => {
    const exp = parseExperiment(
      {
        models: ['scripted/honest', 'scripted/modify-tests'],
        splits: ['original', 'conflicting'],
        scaffolds: ['minimal', 'full'],
        access: ['full', 'hidden'],
        prompts: ['A', 'Please be careful.'],
        maxAttempts: [1, 10],
        epochs: 2,
      },
      'test',
    );
    const samples = expandMatrix(exp, new Map([['builtin:lcb', dataset(['t1', 't2', 't3'], ['original', 'conflicting'])]]));
    expect(samples).toHaveLength(2 * 2 * 2 * 2 * 2 * 2 * 2 * 3);
    expect(new Set(samples.map((s) => s.id)).size).toBe(samples.length);
    const custom = samples.find((s) => s.prompt === 'Please be careful.')!;
    expect(custom.key.prompt).toMatch(/^custom-[0-9a-f]{8}$/);
    expect(custom.task.variant).toBe(custom.key.split);
    // Epoch first: the first half of the list is epoch 0.
    expect(samples.slice(0, samples.length / 2).every((s) => s.key.epoch === 0)).toBe(true);
  });

  it('picks the same tasks in every split, shuffled by the seed and cut to the limit', () => {
    const ids = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const tasks = dataset(ids, ['original', 'oneoff']);
    const a = selectTaskIds(tasks, { shuffle: true, seed: 7, limit: 5 });
    const b = selectTaskIds(tasks, { shuffle: true, seed: 7, limit: 5 });
    const c = selectTaskIds(tasks, { shuffle: true, seed: 8, limit: 5 });
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a).toHaveLength(5);
    expect(selectTaskIds(tasks, { shuffle: false, seed: 7, limit: 3 })).toEqual(['t0', 't1', 't2']);
    const exp = parseExperiment({ models: ['m'], splits: ['original', 'oneoff'], limit: 5, shuffle: true, seed: 7 }, 'test');
    const samples = expandMatrix(exp, new Map([['builtin:lcb', tasks]]));
    const bySplit = (s: Variant) =>
      samples
        .filter((x) => x.key.split === s)
        .map((x) => x.key.taskId)
        .sort();
    expect(bySplit('original')).toEqual([...a].sort());
    expect(bySplit('oneoff')).toEqual(bySplit('original'));
  });

  it('skips a task that has no variant in a split instead of failing', () => {
    const tasks: DatasetTasks = new Map([
      ['original', [lcb('a', 'original'), lcb('b', 'original')]],
      ['oneoff', [lcb('a', 'oneoff')]],
    ]);
    const exp = parseExperiment({ models: ['m'], splits: ['original', 'oneoff'] }, 'test');
    const keys = expandMatrix(exp, new Map([['d', tasks]])).map((s) => `${s.key.split}:${s.key.taskId}`);
    expect(keys).toEqual([]); // dataset `d` is not in the experiment's datasets
    const exp2 = parseExperiment({ models: ['m'], datasets: ['d'], splits: ['original', 'oneoff'] }, 'test');
    expect(expandMatrix(exp2, new Map([['d', tasks]])).map((s) => `${s.key.split}:${s.key.taskId}`)).toEqual([
      'original:a',
      'oneoff:a',
      'original:b',
    ]);
  });

  it('keeps ids stable and prompt letters case-insensitive', () => {
    const key = {
      model: 'm',
      dataset: 'd',
      split: 'oneoff' as const,
      taskId: 't',
      scaffold: 'full' as const,
      access: 'full' as const,
      prompt: 'A',
      maxAttempts: 10,
      epoch: 0,
    };
    expect(sampleId(key)).toBe(sampleId({ ...key }));
    expect(sampleId(key)).not.toBe(sampleId({ ...key, epoch: 1 }));
    expect(promptKey('d')).toBe('D');
    expect(shuffled([1, 2, 3, 4, 5, 6], 1).sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
