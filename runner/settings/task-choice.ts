import { z } from 'zod';
import { readUserTextFile } from '../../core/text-file.js';
import { collect } from './shared-flags.js';
import { setting } from './setting-flags.js';

/** The run's choice of tasks by id: the experiment's settings for it, and the reading of `--exclude-file`. */

/** Ids, repeatable; empty by default (unlike the matrix's lists), and one bare id in a config file is a list of one. */
const ids = () => z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(z.string().min(1))).default([]);

export const TASK_CHOICE_SETTINGS = {
  /** Only these task ids, in every dataset (before shuffle and limit). */
  tasks: setting(ids(), {
    flag: '--task <id>',
    help: 'run only this task id, in every dataset; repeatable. An id no dataset has stops the run before it starts',
    parse: collect,
  }),
  /** Task ids left out of every dataset; `excludeFile`'s ids are added here when the run is set up, so the run records them. */
  excludeTasks: setting(ids(), {
    flag: '--exclude-task <id>',
    help: 'leave this task id out, in every dataset; repeatable. An id no dataset has stops the run before it starts',
    parse: collect,
  }),
  excludeFile: setting(z.string().min(1).optional(), {
    flag: '--exclude-file <file>',
    help: 'leave out the task ids in FILE: one a line, `#` starts a comment. They join --exclude-task and are stored with the run',
  }),
};

/** Task ids in a file: one a line, blank lines skipped, `#` to the line's end a comment. */
export function taskIdLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
}

/**
 * The experiment with `--exclude-file`'s ids joined to `excludeTasks`: what the run stores, so it records every id it
 * left out, and a resume leaves out the same ones whatever the file holds by then.
 */
export function readExcludeFile<E extends { excludeFile?: string | undefined; excludeTasks: string[] }>(experiment: E): E {
  if (experiment.excludeFile === undefined) return experiment;
  const ids = taskIdLines(readUserTextFile(experiment.excludeFile, '--exclude-file').text);
  const { excludeFile: _read, ...rest } = experiment;
  return { ...rest, excludeTasks: [...new Set([...experiment.excludeTasks, ...ids])] } as E;
}
