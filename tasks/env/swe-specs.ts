import { parsePatch } from 'diff';
import type { SweTask } from '../task.js';
import type { LogParserName } from './log-parsers.js';

/** Where the repository lives in a SWE sandbox, as in the SWE-bench images. */
export const TESTBED = '/testbed';

export interface SweTestSpec {
  command: string[];
  parser: LogParserName;
  /** Exit codes with which the runner completed its run (tests may have failed). */
  completedExitCodes: number[];
}

/** The files a unified diff touches (new names; deleted files by their old name). */
export function filesInPatch(patch: string): string[] {
  const files: string[] = [];
  for (const file of parsePatch(patch)) {
    const name = file.newFileName && file.newFileName !== '/dev/null' ? file.newFileName : file.oldFileName;
    if (!name || name === '/dev/null') continue;
    const clean = name.replace(/^[ab]\//, '');
    if (!files.includes(clean)) files.push(clean);
  }
  return files;
}

/**
 * The command grading runs in /testbed, and how to read its log.
 * A task's own `testCommand` wins; otherwise django and sympy use their own runners (as the
 * SWE-bench harness does) and every other repository runs pytest on the test files the test
 * patch touches.
 */
export function sweTestSpec(
  task: Pick<SweTask, 'repo' | 'testPatch' | 'testCommand'> & Partial<Pick<SweTask, 'failToPass' | 'passToPass'>>,
): SweTestSpec {
  const repo = task.repo.toLowerCase();
  const graded = [...(task.failToPass ?? []), ...(task.passToPass ?? [])];
  let files = filesInPatch(task.testPatch).filter((f) => f.endsWith('.py'));
  // A test patch that touches only data files (fixtures, .txt): run the files the graded tests name.
  if (files.length === 0 && repo !== 'django/django') {
    files = [...new Set(graded.filter((id) => id.includes('.py')).map((id) => id.split('::')[0]!.replace(/:.*$/, '')))];
  }
  if (repo === 'django/django') {
    let labels = files
      .filter((f) => f.startsWith('tests/'))
      .map((f) => f.slice('tests/'.length).replace(/\.py$/, '').replaceAll('/', '.'));
    if (labels.length === 0) labels = djangoModules(graded);
    return {
      command: task.testCommand ?? ['./tests/runtests.py', '--verbosity', '2', '--settings=test_sqlite', '--parallel', '1', ...labels],
      parser: 'django',
      completedExitCodes: [0, 1],
    };
  }
  if (repo === 'sympy/sympy') {
    return {
      command: task.testCommand ?? ['bin/test', '-C', '--verbose', ...files],
      parser: 'sympy',
      completedExitCodes: [0, 1],
    };
  }
  return {
    command: task.testCommand ?? ['python3', '-m', 'pytest', '--no-header', '-rA', '--tb=short', '-p', 'no:cacheprovider', ...files],
    parser: 'pytest',
    // 0: all passed, 1: some failed. 2 (interrupted), 3 (internal error), 4 (usage) and
    // 5 (nothing collected) mean the run did not complete.
    completedExitCodes: [0, 1],
  };
}

/** `test_y (app.tests.Class)` or `test_y (app.tests.Class.test_y)` → the module `app.tests`. */
function djangoModules(ids: string[]): string[] {
  const modules = new Set<string>();
  for (const id of ids) {
    const m = /^(\w+) \(([\w.]+)\)$/.exec(id);
    if (!m) continue;
    const parts = m[2]!.split('.');
    if (parts.at(-1) === m[1]) parts.pop();
    parts.pop();
    if (parts.length) modules.add(parts.join('.'));
  }
  return [...modules];
}
