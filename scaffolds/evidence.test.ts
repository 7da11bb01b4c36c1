import { describe, expect, it } from 'vitest';
import { lastPythonBlock } from './env/answer.js';
import { diffSnapshots, isTestFile, outsideChanges } from './evidence.js';
import { headAndTail } from './tools/truncate.js';
import { AGENT_HOME, HARNESS_DIR } from '../core/sandbox.js';

describe('diffSnapshots', () => {
  it('keeps test edits out of the source diff, and shows added and deleted files', () => {
    const before = new Map([
      ['func.py', Buffer.from('def f():\n    pass\n')],
      ['test.py', Buffer.from('assert f() == 1\nassert f() == 2\n')],
    ]);
    const after = new Map([
      ['func.py', Buffer.from('def f():\n    return 1\n')],
      ['conftest.py', Buffer.from('import sys\n')],
      ['helper.py', Buffer.from('X = 1\n')],
      ['__pycache__/func.cpython-311.pyc', Buffer.from([0, 1, 2])],
    ]);
    const { sourceDiff, testDiff } = diffSnapshots(before, after);
    expect(sourceDiff).toContain('--- a/func.py');
    expect(sourceDiff).toContain('+    return 1');
    expect(sourceDiff).toContain('+++ b/helper.py');
    expect(sourceDiff).not.toMatch(/test\.py|conftest|pycache/);
    expect(testDiff).toContain('--- a/test.py\n+++ /dev/null');
    expect(testDiff).toContain('-assert f() == 2');
    expect(testDiff).toContain('+++ b/conftest.py');
  });

  it('is empty when nothing changed', () => {
    const files = new Map([['func.py', Buffer.from('x = 1\n')]]);
    expect(diffSnapshots(files, new Map(files))).toEqual({ sourceDiff: '', testDiff: '' });
  });

  it('recognises the usual test file names', () => {
    for (const p of ['test.py', 'test_x.py', 'pkg/x_test.py', 'conftest.py', 'tests/helpers.py']) expect(isTestFile(p), p).toBe(true);
    for (const p of ['func.py', 'testing.py', 'contest.py']) expect(isTestFile(p), p).toBe(false);
  });
});

describe('outsideChanges', () => {
  it('drops owned paths and parent directories that changed only through their children', () => {
    const listed = outsideChanges(
      [
        { path: '/work', kind: 'added' },
        { path: '/work/func.py', kind: 'added' },
        { path: '/usr', kind: 'modified' },
        { path: '/usr/lib/python3/dist-packages/sitecustomize.py', kind: 'added' },
        { path: '/usr/lib', kind: 'modified' },
        { path: '/usr/lib/python3', kind: 'modified' },
        { path: '/usr/lib/python3/dist-packages', kind: 'modified' },
        { path: '/etc/hosts', kind: 'modified' },
        { path: '/home/agent/.bashrc', kind: 'deleted' },
        { path: AGENT_HOME, kind: 'modified' },
        { path: '/usr/local/bin/python', kind: 'added' },
        { path: HARNESS_DIR, kind: 'added' },
      ],
      ['/work', HARNESS_DIR, '/usr/local/bin/python'],
    );
    expect(listed.split('\n')).toEqual([
      'added /usr/lib/python3/dist-packages/sitecustomize.py',
      'deleted /home/agent/.bashrc',
      'modified /etc/hosts',
    ]);
  });
});

describe('lastPythonBlock', () => {
  it('takes the last python block, else the last untagged one', () => {
    expect(lastPythonBlock('a\n```python\nx = 1\n```\nthen\n```py\nx = 2\n```\n```text\nno\n```')).toBe('x = 2');
    expect(lastPythonBlock('```\ny = 3\n```')).toBe('y = 3');
    expect(lastPythonBlock('no code here')).toBeNull();
    // An answer cut off inside its block still submits what it has.
    expect(lastPythonBlock('```python\ndef f():\n    return 1')).toBe('def f():\n    return 1');
    // Longer fences may hold triple backticks inside.
    expect(lastPythonBlock('````python\ns = """```"""\n````')).toBe('s = """```"""');
  });
});

describe('headAndTail', () => {
  it('keeps short text and cuts long text in the middle, saying how much', () => {
    expect(headAndTail('short', 10)).toBe('short');
    const cut = headAndTail(`${'a'.repeat(50)}${'b'.repeat(50)}`, 20);
    expect(cut.startsWith('a'.repeat(10))).toBe(true);
    expect(cut.endsWith('b'.repeat(10))).toBe(true);
    expect(cut).toContain('[... 80 characters cut from the middle of the output ...]');
  });
});
