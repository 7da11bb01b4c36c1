import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxBackend } from '../../docker/backends.js';
import { readJsonl, sharedDataFile } from '../../core/testing/shared-data.js';
import { swebenchImage } from '../../tasks/images.js';
import { sweRowToTask } from '../../tasks/rows.js';
import type { SweTask } from '../../tasks/task.js';
import { gradeWithPatches, validateSweVariants } from '../validate/swe.js';
import { mutateSweTestPatch } from './mutate.js';
import { parsePatch } from './patch.js';
import { baseTestFiles, imageTestFiles } from './repo-files.js';

/** The sympy rows scripts/swebench-replicas.sh builds replicas of; ../shared holds their repository. */
const IDS = ['sympy__sympy-23534', 'sympy__sympy-24213'];
const verified = sharedDataFile('swebench/verified.jsonl');
const repoTar = sharedDataFile('swebench/repos/sympy.git.tar');
const missing = (await Promise.all(IDS.map((id) => sandboxBackend().images.status(swebenchImage(id))))).filter((s) => s.state !== 'present');
if (missing.length > 0) {
  const why = `the SWE-bench replicas ${missing.map((s) => s.name).join(', ')} are missing (build them: bash scripts/swebench-replicas.sh)`;
  if (process.env.CI) throw new Error(why);
  console.warn(`skipping: ${why}`);
}

describe.runIf(verified && repoTar && missing.length === 0)('whole-file mutation on the sympy replica rows', () => {
  let dir = '';
  let repo = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'whole-file-'));
    await execa('tar', ['-xf', repoTar!, '-C', dir]);
    repo = join(dir, 'sympy.git');
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("reads the same test files in each row's image as in the repository", async () => {
    for (const id of IDS) {
      const made = sweRowToTask(readJsonl(verified!).find((r) => r.instance_id === id)!, { source: verified! });
      if (!made.ok) throw new Error(JSON.stringify(made.problems));
      const task = made.task as SweTask;
      const fromImage = await imageTestFiles(task, { runId: 'test-whole-file' });
      expect(fromImage.size, id).toBeGreaterThan(0);
      expect(fromImage, id).toEqual(await baseTestFiles(repo, task.baseCommit, task.originalTestPatch));
    }
  }, 300_000);

  it('a test the patch does not show is mutated in the whole file, emitted as a patch, and the gold patch fails it at the mutated assertion', async () => {
    for (const id of IDS) {
      const row = readJsonl(verified!).find((r) => r.instance_id === id)!;
      const made = sweRowToTask(row, { source: verified! });
      if (!made.ok) throw new Error(JSON.stringify(made.problems));
      const task = made.task as SweTask;
      const baseFiles = await baseTestFiles(repo, task.baseCommit, task.originalTestPatch);
      expect(baseFiles.size, id).toBeGreaterThan(0);
      // A passing test of the same file, which the patch shows nothing of: only the whole file reaches it.
      let variant: SweTask | undefined;
      for (const target of task.passToPass) {
        const input = { id, testPatch: task.originalTestPatch, failToPass: [target] };
        const alone = await mutateSweTestPatch(input, 'oneoff', 0);
        if (alone.ok) continue;
        const m = await mutateSweTestPatch({ ...input, baseFiles }, 'oneoff', 0);
        if (!m.ok || !/^(int|float|str|list|tuple)/.test(m.record.strategy)) continue;
        expect(m.record.origin).toBe('whole-file');
        // Narrowed back to git's three lines of context, in hunks of their own.
        const file = parsePatch(m.testPatch).files.find((f) => f.newPath === m.record.file)!;
        expect(file.hunks.every((h) => h.lines.filter((l) => l.op === ' ').length <= 6 * 4)).toBe(true);
        variant = { ...task, variant: 'oneoff', testPatch: m.testPatch, mutation: m.record };
        break;
      }
      if (!variant) throw new Error(`${id}: no passing test of the patched file could be mutated in the whole file`);
      const [verdict] = await validateSweVariants([variant], { runId: 'test-whole-file' });
      expect(verdict!.ok, `${id}: ${verdict!.reason}`).toBe(true);
      const gold = await gradeWithPatches(variant, variant.testPatch, variant.patch, 'whole-file-gold', { runId: 'test-whole-file' });
      // sympy's runner names the failing line of the test file in its traceback: the first line of the
      // mutated statement, which holds the changed line (a statement may span several).
      const m = variant.mutation!;
      const at = new RegExp(`${m.file!.replace(/\./g, '\\.')}", line (\\d+), in ${m.testId}`).exec(gold.log);
      expect(at, gold.log).not.toBeNull();
      const failed = Number(at![1]);
      expect(failed).toBeLessThanOrEqual(m.line);
      expect(failed).toBeGreaterThanOrEqual(m.line - m.before.split('\n').length + 1);
    }
  }, 900_000);
});
