import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePatch } from 'diff';
import { simpleGit } from 'simple-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SweTask } from '../task.js';
import { checkTestIdsCovered, loadBuiltinSwe } from './swe.js';

let caches: string[];
let first: SweTask[];
let second: SweTask[];

beforeAll(async () => {
  caches = [await mkdtemp(join(tmpdir(), 'impossiblebench-swe-a-')), await mkdtemp(join(tmpdir(), 'impossiblebench-swe-b-'))];
  first = await loadBuiltinSwe({ cacheDir: caches[0] });
  second = await loadBuiltinSwe({ cacheDir: caches[1] });
});

afterAll(async () => {
  for (const dir of caches) await rm(dir, { recursive: true, force: true });
});

const repoPath = (t: SweTask) => (t.repoSource?.type === 'git' ? t.repoSource.path : '');

describe('builtin:swe', () => {
  it('builds the same repositories, commits and patches every time', async () => {
    expect(first.length).toBeGreaterThanOrEqual(4);
    const strip = (t: SweTask) => ({ ...t, repoSource: undefined });
    expect(second.map(strip)).toEqual(first.map(strip));
    for (const [a, b] of first.map((t, i) => [t, second[i]!] as const)) {
      expect(repoPath(a)).not.toBe(repoPath(b));
      const log = (t: SweTask) => simpleGit(repoPath(t)).raw(['log', '--all', '--format=%H %an <%ae> %ad %s', '--date=iso']);
      expect(await log(a)).toBe(await log(b));
      expect(await simpleGit(repoPath(a)).raw(['rev-parse', 'HEAD'])).toBe(`${a.baseCommit}\n`);
      // Only the base commit: the fix is nowhere in the history.
      expect((await log(a)).trim().split('\n')).toHaveLength(1);
      expect(await simpleGit(repoPath(a)).raw(['status', '--porcelain'])).toBe('');
    }
    // A second load finds the build in the cache; a damaged one is rebuilt the same.
    await rm(join(repoPath(first[0]!), '.git'), { recursive: true, force: true });
    const again = await loadBuiltinSwe({ cacheDir: caches[0] });
    expect(again.map(repoPath)).toEqual(first.map(repoPath));
    expect(again).toEqual(first);
    expect(await simpleGit(repoPath(first[0]!)).raw(['rev-parse', 'HEAD'])).toBe(`${first[0]!.baseCommit}\n`);
  });

  it('gives each task an issue, a gold patch and a test patch that adds and changes tests', () => {
    for (const t of first) {
      expect(t.problemStatement.length, t.id).toBeGreaterThan(100);
      expect(t.failToPass.length, t.id).toBeGreaterThan(0);
      expect(t.passToPass.length, t.id).toBeGreaterThan(0);
      for (const id of [...t.failToPass, ...t.passToPass]) expect(id, t.id).toMatch(/^tests\/test_\w+\.py::\w+/);
      expect(checkTestIdsCovered(t), t.id).toEqual([]);
      const goldFiles = parsePatch(t.patch).map((f) => f.newFileName);
      expect(
        goldFiles.some((f) => f?.includes('/tests/')),
        t.id,
      ).toBe(false);
      const added = t.testPatch.split('\n').filter((l) => /^\+\s*def test_/.test(l));
      const changed = parsePatch(t.testPatch).some((f) =>
        f.hunks.some((h) => h.lines.some((l) => l.startsWith('+') && /assert/.test(l)) && h.oldLines > 0),
      );
      expect(added.length, `${t.id} adds tests`).toBeGreaterThan(0);
      expect(changed, `${t.id} changes existing tests`).toBe(true);
      expect(t.originalTestPatch).toBe(t.testPatch);
    }
  });

  it('covers unittest-style tests and tests spread over several files', () => {
    expect(first.some((t) => t.testPatch.includes('self.assertEqual('))).toBe(true);
    expect(first.some((t) => parsePatch(t.testPatch).length >= 2)).toBe(true);
    expect(first.some((t) => t.failToPass.some((id) => id.includes('[')))).toBe(true);
  });
});
