import { describe, expect, it } from 'vitest';
import type { Task } from '../../tasks/task.js';
import { parseExperiment } from '../settings/config.js';
import { taskIdLines } from '../settings/task-choice.js';
import { selectTaskIds, type DatasetTasks } from './matrix.js';
import { checkTaskIds, chosenIds, rememberKnownIds } from './task-filter.js';

const dataset = (ids: string[]): DatasetTasks => {
  const tasks: DatasetTasks = new Map([['original', ids.map((id) => ({ id, variant: 'original' }) as Task)]]);
  rememberKnownIds(tasks, ids);
  return tasks;
};

describe('choosing tasks by id', () => {
  it('keeps only --task ids, leaves out --exclude-task ids, and cuts to --limit after the choice', () => {
    const ids = ['a', 'b', 'c', 'd'];
    expect(chosenIds(ids, {})).toEqual(ids);
    expect(chosenIds(ids, { tasks: ['c', 'a'] })).toEqual(['a', 'c']);
    expect(chosenIds(ids, { excludeTasks: ['b'] })).toEqual(['a', 'c', 'd']);
    expect(chosenIds(ids, { tasks: ['a', 'b'], excludeTasks: ['b'] })).toEqual(['a']);
    expect(selectTaskIds(dataset(ids), { excludeTasks: ['a'], limit: 2, shuffle: false, seed: 0 })).toEqual(['b', 'c']);
  });

  it('stops on an id no dataset has, naming the flag and the id, and accepts one any dataset has', () => {
    const datasets = new Map([
      ['lcb', dataset(['l1', 'l2'])],
      ['swe', dataset(['s1'])],
    ]);
    expect(() => checkTaskIds({ tasks: ['l1', 's1'], excludeTasks: ['l2'] }, datasets)).not.toThrow();
    expect(() => checkTaskIds({ tasks: ['l1', 'typo'] }, datasets)).toThrow('--task typo: no task of lcb, swe has that id');
    expect(() => checkTaskIds({ excludeTasks: ['x', 'y'] }, datasets)).toThrow(
      '--exclude-task x, --exclude-task y: no task of lcb, swe has those ids',
    );
  });

  it('reads an exclude file: one id a line, comments and blank lines skipped', () => {
    expect(taskIdLines('# flaky here\nl1\n\n  l2  # times out\r\n#l3\n')).toEqual(['l1', 'l2']);
  });

  it('stores a run with no ids chosen so that it reads back, and takes one bare id in a config file', () => {
    const stored = parseExperiment({ models: ['scripted/honest'] }, 'flags');
    expect(parseExperiment(JSON.parse(JSON.stringify(stored)), 'the stored config')).toMatchObject({ tasks: [], excludeTasks: [] });
    expect(parseExperiment({ models: ['scripted/honest'], excludeTasks: 'ib_lcb_01' }, 'a file').excludeTasks).toEqual(['ib_lcb_01']);
  });
});
