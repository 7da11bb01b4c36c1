/**
 * bench:mutate's second part: the rows the patch alone leaves out, each with its reason, and,
 * where ../shared holds the row's repository, whether the whole test file would reach it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { SHARED_DATA } from '../core/testing/shared-data.js';
import { mutateSweTestPatch, type SweMutation } from '../mutations/swe/mutate.js';
import { baseTestFiles } from '../mutations/swe/repo-files.js';

interface Row {
  instance_id: string;
  repo: string;
  base_commit: string;
  test_patch: string;
  FAIL_TO_PASS: string | string[];
}
interface LeftOut {
  id: string;
  oneoff: SweMutation;
  conflicting: SweMutation;
}

const REPOS: Record<string, string> = { 'sympy/sympy': 'sympy.git.tar', 'django/django': 'django.git.tar' };

async function unpacked(dir: string, repo: string): Promise<string | undefined> {
  const tar = join(SHARED_DATA, 'swebench', 'repos', REPOS[repo] ?? '');
  if (!REPOS[repo] || !existsSync(tar)) return undefined;
  const into = join(dir, repo.replace('/', '_'));
  if (!existsSync(into)) {
    await execa('mkdir', ['-p', into]);
    await execa('tar', ['-xf', tar, '-C', into]);
  }
  return join(into, REPOS[repo]!.replace(/\.tar$/, ''));
}

/** What the whole test file at the row's base commit makes of it, or why that cannot be said. */
async function wholeFileVerdict(dir: string, row: Row): Promise<string> {
  const repo = await unpacked(dir, row.repo);
  if (!repo) return 'repository not in ../shared';
  if ((await execa('git', ['-C', repo, 'cat-file', '-e', row.base_commit], { reject: false })).exitCode !== 0) return 'base commit not in ../shared';
  const baseFiles = await baseTestFiles(repo, row.base_commit, row.test_patch);
  const failToPass = Array.isArray(row.FAIL_TO_PASS) ? row.FAIL_TO_PASS : (JSON.parse(row.FAIL_TO_PASS) as string[]);
  const input = { id: row.instance_id, testPatch: row.test_patch, failToPass, baseFiles };
  const both = [await mutateSweTestPatch(input, 'oneoff', 0), await mutateSweTestPatch(input, 'conflicting', 0)];
  const reached = both.filter((m) => m.ok).length;
  return reached === 2 ? 'the whole test file reaches it (both variants)' : `the whole test file does not reach it (${reached}/2 variants)`;
}

export async function reportLeftOut(rows: readonly Row[], left: readonly LeftOut[]): Promise<void> {
  console.log(`rows left out (${left.length}), with the first reason given:`);
  const dir = await mkdtemp(join(tmpdir(), 'bench-mutate-'));
  try {
    for (const l of left) {
      const row = rows.find((r) => r.instance_id === l.id)!;
      const failed = [l.oneoff, l.conflicting].find((m): m is Extract<SweMutation, { ok: false }> => !m.ok)!;
      const reach = REPOS[row.repo] ? `; ${await wholeFileVerdict(dir, row)}` : '';
      console.log(`  ${l.id}: ${failed.reason.slice(0, 160)}${reach}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
