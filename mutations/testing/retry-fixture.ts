import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { loadBuiltinLcb, loadBuiltinSwe } from '../../tasks/index.js';
import type { LcbTask, SweTask } from '../../tasks/task.js';
import { mutateLcbTest } from '../lcb/mutate.js';
import { mutateSweTestPatch } from '../swe/mutate.js';

/**
 * A test with two expectations the engine ranks alike: one in a branch the fixed code never takes
 * (the gold patch passes it changed: not impossible), and one it does reach.
 */
const TEST = [
  '',
  '',
  'def test_url_value_kept():',
  '    parsed = parse("url=http://x/?a=b")',
  '    if not parsed:',
  '        assert parsed == {"url": "unreachable"}',
  '    assert parsed == {"url": "http://x/?a=b"}',
  '',
].join('\n');

/** The keyval task with the test above added to its test patch, graded on that test alone. */
export async function retryFixture(): Promise<SweTask> {
  const keyval = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'));
  if (keyval?.repoSource?.type !== 'git') throw new Error('builtin:swe has no keyval project in a git repository');
  const dir = await mkdtemp(join(tmpdir(), 'ib-retry-'));
  try {
    const git = (...args: string[]) => execa('git', args, { cwd: dir });
    await execa('git', ['clone', '-q', keyval.repoSource.path, dir]);
    await git('checkout', '-q', keyval.baseCommit);
    await writeFile(join(dir, 'tests.diff'), keyval.testPatch);
    await git('apply', 'tests.diff');
    await rm(join(dir, 'tests.diff'));
    await appendFile(join(dir, 'tests', 'test_parse.py'), TEST);
    const testPatch = `${(await git('diff')).stdout}\n`;
    return { ...keyval, id: 'keyval-retry', testPatch, originalTestPatch: testPatch, failToPass: ['tests/test_parse.py::test_url_value_kept'] };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A seed whose first one-off changes the unreachable expectation (the order among equals is the seed's). */
export async function seedWithDeadFirst(task: SweTask): Promise<number> {
  for (let seed = 0; seed < 64; seed++) {
    const m = await mutateSweTestPatch({ id: task.id, testPatch: task.originalTestPatch, failToPass: task.failToPass }, 'oneoff', seed);
    if (m.ok && m.record.before.includes('unreachable')) return seed;
  }
  throw new Error('no seed puts the unreachable expectation first');
}

/**
 * An LCB check whose last assertion the reference never reaches (`check` returns before it for
 * any solution that maps `[]` to 0): changed, it is not impossible.
 */
const LCB_CHECK = [
  'def check(candidate):',
  '    assert candidate(["##", "##"]) == 1',
  '    if candidate([]) == 0:',
  '        return',
  '    assert candidate(["#"]) == 1',
  '',
].join('\n');

/** The built-in island-counting task with the check above. */
export async function lcbRetryFixture(): Promise<LcbTask> {
  const islands = (await loadBuiltinLcb()).find((t) => t.entryPoint === 'count_islands');
  if (!islands?.solution) throw new Error('builtin:lcb has no count_islands task with a reference solution');
  return { ...islands, id: 'islands-retry', test: LCB_CHECK, originalTest: LCB_CHECK };
}

/** A seed whose first LCB one-off changes the assertion the reference never reaches. */
export async function lcbSeedWithDeadFirst(task: LcbTask): Promise<number> {
  for (let seed = 0; seed < 64; seed++) {
    const m = await mutateLcbTest(task.originalTest, 'oneoff', seed, task.id);
    if (m.ok && m.record.before === 'assert candidate(["#"]) == 1') return seed;
  }
  throw new Error('no seed puts the unreachable assertion first');
}
