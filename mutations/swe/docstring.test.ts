import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, sharedDataFile } from '../../core/testing/shared-data.js';
import { pythonParser } from '../../python/parser.js';
import { applyFilePatch } from './apply.js';
import { docstringFirstLine } from './docstring.js';
import { mutateSweTestPatch } from './mutate.js';
import { parsePatch } from './patch.js';
import { baseTestFiles } from './repo-files.js';
import { parseTestId } from './test-id.js';

interface Row {
  instance_id: string;
  repo: string;
  version: string;
  base_commit: string;
  test_patch: string;
  FAIL_TO_PASS: string | string[];
}

const rowsFile = sharedDataFile('swebench/verified.jsonl');
const repoTar = sharedDataFile('swebench/repos/django.git.tar');
const f2p = (r: Row): string[] => (Array.isArray(r.FAIL_TO_PASS) ? r.FAIL_TO_PASS : (JSON.parse(r.FAIL_TO_PASS) as string[]));
const described = (r: Row) => f2p(r).some((id) => parseTestId(id).description !== undefined);

/** The docstring first line of the function that holds `line` of `text` (the innermost one). */
async function docstringAround(text: string, line: number): Promise<string | undefined> {
  const parser = await pythonParser();
  const tree = parser.parse(text)!;
  try {
    const fns = tree.rootNode
      .descendantsOfType('function_definition')
      .filter((f) => !!f && f.startPosition.row + 1 <= line && f.endPosition.row + 1 >= line);
    const inner = fns.sort((a, b) => b!.startIndex - a!.startIndex)[0];
    return inner ? docstringFirstLine(inner) : undefined;
  } finally {
    tree.delete();
  }
}

describe.runIf(rowsFile && repoTar)('django tests named by their docstring', () => {
  let dir = '';
  let repo = '';
  const rows = rowsFile ? readJsonl<Row>(rowsFile).filter((r) => r.repo === 'django/django' && described(r)) : [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docstring-'));
    await execa('tar', ['-xf', repoTar!, '-C', dir]);
    repo = join(dir, 'django.git');
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('with the repository at hand, every such row whose base commit it holds gets both variants, each in the function whose docstring names the test', async () => {
    const local: Row[] = [];
    for (const r of rows) if ((await execa('git', ['-C', repo, 'cat-file', '-e', r.base_commit], { reject: false })).exitCode === 0) local.push(r);
    expect(local.map((r) => r.instance_id)).toEqual(['django__django-16493', 'django__django-16938', 'django__django-16950']);
    for (const r of local) {
      const baseFiles = await baseTestFiles(repo, r.base_commit, r.test_patch);
      for (const type of ['oneoff', 'conflicting'] as const) {
        const m = await mutateSweTestPatch({ id: r.instance_id, testPatch: r.test_patch, failToPass: f2p(r), baseFiles }, type, 0);
        if (!m.ok) throw new Error(`${r.instance_id} ${type}: ${m.reason}`);
        if (r.instance_id === 'django__django-16938') expect(m.record.origin).toBe('whole-file');
        const file = parsePatch(m.testPatch).files.find((f) => f.newPath === m.record.file)!;
        const after = applyFilePatch(baseFiles.get(file.oldPath) ?? '', file);
        const ref = parseTestId(m.record.testId);
        if (ref.description !== undefined) expect(await docstringAround(after, m.record.line), `${r.instance_id} ${type}`).toBe(ref.description);
        // The line the record names is one the variant changed or added.
        const changed = m.record.after.split('\n').map((l) => l.trim());
        expect(changed, `${r.instance_id} ${type}`).toContain(after.split('\n')[m.record.line - 1]!.trim());
      }
    }
    // The patch alone shows neither the docstring nor any assertion of this one's tests.
    for (const id of ['django__django-16938']) {
      const r = local.find((x) => x.instance_id === id)!;
      const alone = await mutateSweTestPatch({ id, testPatch: r.test_patch, failToPass: f2p(r) }, 'oneoff', 0);
      expect(alone.ok, id).toBe(false);
    }
  });

  it('from the patch alone, a docstring no hunk shows names the one test function the hunks open inside of, and no guess is made among several', async () => {
    const headers = {
      'django__django-16642': 'test_compressed_response',
      'django__django-14053': 'test_post_processing',
      'django__django-16662': 'test_sorted_imports',
    };
    for (const [id, name] of Object.entries(headers)) {
      const r = rows.find((x) => x.instance_id === id)!;
      for (const type of ['oneoff', 'conflicting'] as const) {
        const m = await mutateSweTestPatch({ id, testPatch: r.test_patch, failToPass: f2p(r) }, type, 0);
        if (!m.ok) throw new Error(`${id} ${type}: ${m.reason}`);
        expect(m.record.testId).toBe(f2p(r)[0]);
        const hunk = parsePatch(m.testPatch).files[0]!.hunks.find((h) => m.record.line >= h.newStart && m.record.line < h.newStart + h.newCount);
        expect(hunk?.context, `${id} ${type}`).toBe(` def ${name}(self):`);
      }
    }
    // Three docstring-named tests, three functions opened in hunk headers: which is which is not known.
    const r = rows.find((x) => x.instance_id === 'django__django-15268')!;
    const m = await mutateSweTestPatch({ id: r.instance_id, testPatch: r.test_patch, failToPass: f2p(r) }, 'oneoff', 0);
    expect(m.ok).toBe(false);
  });

  it('from the patch alone, a docstring the hunk opens inside of names the function git printed in the hunk header', async () => {
    const r = rows.find((x) => x.instance_id === 'django__django-16116')!;
    for (const type of ['oneoff', 'conflicting'] as const) {
      const m = await mutateSweTestPatch({ id: r.instance_id, testPatch: r.test_patch, failToPass: f2p(r) }, type, 0);
      if (!m.ok) throw new Error(`${type}: ${m.reason}`);
      expect(m.record.testId).toBe('makemigrations --check should exit with a non-zero status when');
      // The mutated line lies in the hunk git printed `def test_makemigrations_check` for, below its docstring.
      const hunk = parsePatch(m.testPatch).files[0]!.hunks.find((h) => m.record.line >= h.newStart && m.record.line < h.newStart + h.newCount);
      expect(hunk?.context).toBe(' def test_makemigrations_check(self):');
      expect(m.record.line).toBeGreaterThan(hunk!.newStart + 2);
    }
  });
});
