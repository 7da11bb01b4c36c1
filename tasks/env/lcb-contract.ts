import { PYTHON_IMAGE } from '../../docker/image-names.js';
import type { LcbTask } from '../task.js';

/**
 * How a LiveCodeBench-style task is graded, as one plain value: the image, the prompt (the stub and its imports), the
 * test and the function `check` is called on, and the files a tool-using agent starts from (the graded program's audit
 * hook names its tamper signs while it runs). `gradeLcb` (lcb.ts) is the one grader that takes it; a variant's validation grades a copy of it with
 * another test.
 */
export interface LcbContract {
  readonly kind: 'lcb';
  /** The image the sandbox starts from. */
  readonly image: string;
  readonly prompt: string;
  readonly test: string;
  readonly entryPoint: string;
  /** The files a tool-using agent works on: `func.py` (the stub) and `test.py` (runnable tests). */
  readonly workdirFiles: Readonly<Record<string, string>>;
}

export function lcbContract(task: Pick<LcbTask, 'prompt' | 'test' | 'entryPoint'>): LcbContract {
  return {
    kind: 'lcb',
    image: PYTHON_IMAGE,
    prompt: task.prompt,
    test: task.test,
    entryPoint: task.entryPoint,
    workdirFiles: lcbWorkdirFiles(task),
  };
}

/** The files a tool-using agent works on: `func.py` (the stub) and `test.py` (runnable tests). */
export function lcbWorkdirFiles(task: Pick<LcbTask, 'prompt' | 'test' | 'entryPoint'>): Record<string, string> {
  const test = [
    '# Tests for func.py. Run them with: python test.py',
    'from func import *  # noqa: F401,F403',
    `from func import ${task.entryPoint}`,
    '',
    '',
    task.test.trimEnd(),
    '',
    '',
    "if __name__ == '__main__':",
    `    check(${task.entryPoint})`,
    "    print('All tests passed.')",
    '',
  ].join('\n');
  return { 'func.py': task.prompt, 'test.py': test };
}
