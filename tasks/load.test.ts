import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { SHARED_DATA } from '../core/testing/shared-data.js';
import { loadDataset, parseDatasetSpec, readDataset } from './load.js';
import type { LcbTask, SweTask } from './task.js';

const SHARED = SHARED_DATA;
const haveShared = existsSync(SHARED);
if (!haveShared) {
  // Under CI the data must be there: a quiet skip would count as a pass.
  if (process.env.CI) throw new Error(`shared data not found at ${SHARED}, and CI needs it`);
  console.warn(`skipping: shared data not found at ${SHARED}; the real-data tests are skipped`);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'impossiblebench-load-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lcbRow = (over: Record<string, unknown> = {}) => ({
  task_id: 'lcbhard_1',
  prompt: 'def f(x):\n    """Double x."""\n',
  entry_point: 'f',
  test: 'def check(candidate):\n    assert candidate(1) == 2\n',
  original_test: 'def check(candidate):\n    assert candidate(1) == 2\n',
  impossible_type: null,
  ...over,
});

async function write(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

describe.runIf(haveShared)('real data', () => {
  it('loads the 500 Verified and 300 Lite rows with zero errors', async () => {
    const verified = await readDataset(join(SHARED, 'swebench', 'verified.jsonl'));
    expect(verified.problems).toEqual([]);
    expect(verified.tasks).toHaveLength(500);
    const lite = await readDataset(join(SHARED, 'swebench', 'lite-test.jsonl'));
    expect(lite.problems).toEqual([]);
    expect(lite.tasks).toHaveLength(300);
    const first = verified.tasks[0] as SweTask;
    expect(first.kind).toBe('swe');
    expect(first.variant).toBe('original');
    // FAIL_TO_PASS arrive as JSON text and leave as lists.
    expect(Array.isArray(first.failToPass)).toBe(true);
    expect(first.failToPass.length).toBeGreaterThan(0);
    expect(first.difficulty).toBeTruthy();
    const django = verified.tasks.find((t) => t.id.startsWith('django__')) as SweTask;
    expect(django.failToPass[0]).toMatch(/^\w+ \([\w.]+\)$/);
  });

  it('loads the Impossible-LiveCodeBench sample as 10 tasks, each original and impossible', async () => {
    const report = await readDataset(join(SHARED, 'impossible-lcb-sample', 'tasks.jsonl'));
    expect(report.problems).toEqual([]);
    expect(report.tasks).toHaveLength(20);
    const byId = new Map<string, LcbTask[]>();
    for (const t of report.tasks as LcbTask[]) byId.set(t.id, [...(byId.get(t.id) ?? []), t]);
    expect(byId.size).toBe(10);
    for (const [id, variants] of byId) {
      expect(variants.map((v) => v.variant).sort(), id).toHaveLength(2);
      expect(
        variants.filter((v) => v.variant === 'original'),
        id,
      ).toHaveLength(1);
      const impossible = variants.find((v) => v.variant !== 'original')!;
      expect(['oneoff', 'conflicting']).toContain(impossible.variant);
      expect(impossible.test, id).not.toBe(impossible.originalTest);
    }
    expect(report.tasks.filter((t) => (t as LcbTask).solution)).toHaveLength(12);
    expect(report.splits.map((s) => s.name).sort()).toEqual(['conflicting', 'oneoff', 'original']);
  });
});

describe('file formats', () => {
  it('reads a JSON array and JSON lines alike', async () => {
    const rows = [
      lcbRow(),
      lcbRow({ task_id: 'lcbhard_2', impossible_type: 'oneoff', test: 'def check(candidate):\n    assert candidate(1) == 3\n' }),
    ];
    const json = await loadDataset(await write('rows.json', JSON.stringify(rows)));
    const jsonl = await loadDataset(await write('rows.jsonl', rows.map((r) => JSON.stringify(r)).join('\n')));
    const withoutSource = (tasks: typeof json) => tasks.map(({ source: _, ...t }) => t);
    expect(withoutSource(jsonl)).toEqual(withoutSource(json));
    expect(json.map((t) => [t.id, t.variant])).toEqual([
      ['lcbhard_1', 'original'],
      ['lcbhard_2', 'oneoff'],
    ]);
  });

  it('reads back a parquet file written by a parquet writer', async () => {
    const swe = {
      instance_id: ['o__p-1', 'o__p-2'],
      repo: ['o/p', 'o/p'],
      base_commit: ['a'.repeat(40), 'b'.repeat(40)],
      patch: ['diff --git a/x.py b/x.py\n', 'diff --git a/y.py b/y.py\n'],
      test_patch: ['diff --git a/t.py b/t.py\n', 'diff --git a/u.py b/u.py\n'],
      problem_statement: ['It breaks.', 'It breaks too.'],
      hints_text: [null, 'try this'],
      FAIL_TO_PASS: ['["t.py::test_a"]', '["u.py::test_b", "u.py::test_c"]'],
      PASS_TO_PASS: ['[]', '["u.py::test_d"]'],
      impossible_type: ['oneoff', 'conflicting'],
      original_test_patch: ['diff --git a/t.py b/t.py\n+orig\n', 'diff --git a/u.py b/u.py\n+orig\n'],
    };
    const buffer = parquetWriteBuffer({
      columnData: [
        ...Object.entries(swe).map(([name, data]) => ({ name, data, type: 'STRING' as const })),
        { name: 'stars', data: [BigInt(12), BigInt(7)], type: 'INT64' as const },
      ],
    });
    const path = await write('rows.parquet', Buffer.from(buffer));
    const report = await readDataset(path);
    expect(report.problems).toEqual([]);
    expect(report.fields).toContain('stars');
    const [a, b] = report.tasks as SweTask[];
    expect(a).toMatchObject({ id: 'o__p-1', variant: 'oneoff', failToPass: ['t.py::test_a'], passToPass: [], hintsText: '' });
    expect(b).toMatchObject({ id: 'o__p-2', variant: 'conflicting', failToPass: ['u.py::test_b', 'u.py::test_c'], hintsText: 'try this' });
    expect(b!.originalTestPatch).toContain('+orig');
  });

  it('names the data sources it understands', () => {
    expect(parseDatasetSpec('builtin:lcb')).toEqual({ type: 'builtin', name: 'lcb' });
    expect(parseDatasetSpec('hf:fjzzq2002/impossible_swebench')).toEqual({ type: 'hf', repo: 'fjzzq2002/impossible_swebench' });
    expect(parseDatasetSpec('hf:o/n@v1')).toEqual({ type: 'hf', repo: 'o/n', revision: 'v1' });
    expect(parseDatasetSpec('file:x.jsonl')).toEqual({ type: 'file', path: 'x.jsonl' });
    expect(() => parseDatasetSpec('builtin:nope')).toThrow('unknown built-in dataset builtin:nope (known: builtin:lcb, builtin:swe)');
  });
});

describe('impossible_swebench rows', () => {
  const sweRow = (over: Record<string, unknown> = {}) => ({
    repo: 'astropy/astropy',
    instance_id: 'astropy__astropy-12907',
    base_commit: 'd16bfe05a744909de4b27f5875fe0d4ed41ce607',
    patch: 'diff --git a/astropy/modeling/separable.py b/astropy/modeling/separable.py\n',
    test_patch: 'diff --git a/astropy/modeling/tests/test_separable.py b/astropy/modeling/tests/test_separable.py\n+mutated\n',
    original_test_patch: 'diff --git a/astropy/modeling/tests/test_separable.py b/astropy/modeling/tests/test_separable.py\n+original\n',
    problem_statement: 'Separability is wrong for nested models.',
    hints_text: '',
    created_at: '2022-03-03T15:14:54Z',
    version: 4.3,
    environment_setup_commit: '298ccb478e6bf092953bca67a3d29dc6c35f6752',
    difficulty: '15 min - 1 hour',
    FAIL_TO_PASS: ['astropy/modeling/tests/test_separable.py::test_separable[compound_model6-result6]'],
    PASS_TO_PASS: '["astropy/modeling/tests/test_separable.py::test_coord_matrix"]',
    impossible_type: 'oneoff',
    first_fail_to_pass_test: 'astropy/modeling/tests/test_separable.py::test_separable[compound_model6-result6]',
    ...over,
  });

  it('maps the impossible test patch, the original one and both test lists (as lists or JSON text)', async () => {
    const path = await write(
      'impossible-swe.jsonl',
      [JSON.stringify(sweRow()), JSON.stringify(sweRow({ impossible_type: null, test_patch: sweRow().original_test_patch }))].join('\n'),
    );
    const [impossible, original] = (await loadDataset(path)) as SweTask[];
    expect(impossible).toMatchObject({
      kind: 'swe',
      id: 'astropy__astropy-12907',
      variant: 'oneoff',
      version: '4.3',
      failToPass: ['astropy/modeling/tests/test_separable.py::test_separable[compound_model6-result6]'],
      passToPass: ['astropy/modeling/tests/test_separable.py::test_coord_matrix'],
      environmentSetupCommit: '298ccb478e6bf092953bca67a3d29dc6c35f6752',
      repoSource: { type: 'image', image: 'swebench/sweb.eval.x86_64.astropy_1776_astropy-12907:latest' },
    });
    expect(impossible!.testPatch).toContain('+mutated');
    expect(impossible!.originalTestPatch).toContain('+original');
    expect(original!.variant).toBe('original');
  });

  it("keeps the mutation record `mutate` writes beside a variant's row, so a run's samples say how it was made", async () => {
    const made = {
      type: 'oneoff',
      strategy: 'int-shift',
      seed: 0,
      line: 9,
      before: 'a',
      after: 'b',
      origin: 'whole-file',
      tries: 2,
      dropped: [{ strategy: 'negate-eq', line: 5, before: 'c', after: 'd', reason: 'the gold patch passes the variant' }],
    };
    const path = await write(
      'with-mutation.jsonl',
      [
        JSON.stringify(sweRow({ mutation: made })),
        JSON.stringify(sweRow({ instance_id: 'astropy__astropy-1' })),
        JSON.stringify(sweRow({ instance_id: 'astropy__astropy-2', mutation: { ...made, tries: 'two' } })),
      ].join('\n'),
    );
    const report = await readDataset(path);
    const [withRecord, without] = report.tasks as SweTask[];
    expect(withRecord!.mutation).toEqual(made);
    expect(without!.mutation).toBeUndefined();
    expect(report.problems).toEqual([{ file: path, row: 3, field: 'mutation.tries', message: expect.stringMatching(/number/) }]);
  });

  it('reports an impossible row without its original test patch', async () => {
    const row = sweRow() as Record<string, unknown>;
    delete row.original_test_patch;
    const path = await write('no-original.jsonl', JSON.stringify(row));
    const report = await readDataset(path);
    expect(report.problems).toEqual([{ file: path, row: 1, field: 'original_test_patch', message: 'missing (required for a oneoff variant)' }]);
  });
});

describe('malformed input', () => {
  it('reports a missing field with file, row and field, skips the row and counts it', async () => {
    const row = lcbRow({ task_id: 'lcbhard_9' }) as Record<string, unknown>;
    delete row.entry_point;
    const path = await write('missing.jsonl', [JSON.stringify(lcbRow()), JSON.stringify(row)].join('\n'));
    const seen: string[] = [];
    const report = await readDataset(path, { onProblem: (p) => seen.push(p.field) });
    expect(report.tasks).toHaveLength(1);
    expect(report.skipped).toBe(1);
    expect(report.problems).toEqual([{ file: path, row: 2, field: 'entry_point', message: 'missing' }]);
    expect(seen).toEqual(['entry_point']);
  });

  it('reports a wrong type, and fails on it first in strict mode', async () => {
    const path = await write(
      'type.jsonl',
      [JSON.stringify(lcbRow({ entry_point: 42 })), JSON.stringify(lcbRow({ task_id: 'x', impossible_type: 'sideways' }))].join('\n'),
    );
    const report = await readDataset(path);
    expect(report.tasks).toHaveLength(0);
    expect(report.problems.map((p) => [p.row, p.field])).toEqual([
      [1, 'entry_point'],
      [2, 'impossible_type'],
    ]);
    expect(report.problems[0]!.message).toMatch(/expected string, received number/);
    await expect(readDataset(path, { strict: true })).rejects.toThrow(
      new UserError(`${path}: row 1: entry_point: Invalid input: expected string, received number`),
    );
  });

  it('reports bad JSON on one line and keeps the other lines', async () => {
    const path = await write(
      'badline.jsonl',
      [JSON.stringify(lcbRow()), '{"task_id": "lcbhard_2", ', JSON.stringify(lcbRow({ task_id: 'lcbhard_3' }))].join('\n'),
    );
    const report = await readDataset(path);
    expect(report.tasks.map((t) => t.id)).toEqual(['lcbhard_1', 'lcbhard_3']);
    expect(report.rows).toBe(3);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ file: path, row: 2, field: '(line)' });
    expect(report.problems[0]!.message).toMatch(/^invalid JSON: /);
  });

  it('reports FAIL_TO_PASS text that is not a JSON list', async () => {
    const path = await write(
      'f2p.jsonl',
      JSON.stringify({
        instance_id: 'o__p-1',
        repo: 'o/p',
        base_commit: 'abc',
        patch: '',
        test_patch: '',
        problem_statement: '',
        FAIL_TO_PASS: 'test_a, test_b',
        PASS_TO_PASS: [],
      }),
    );
    const report = await readDataset(path);
    expect(report.problems).toEqual([{ file: path, row: 1, field: 'FAIL_TO_PASS', message: 'not a list, nor JSON text of a list' }]);
  });

  it('reports duplicates and rows of no known format', async () => {
    const path = await write('dup.jsonl', [JSON.stringify(lcbRow()), JSON.stringify(lcbRow()), JSON.stringify(['not', 'a', 'row'])].join('\n'));
    const report = await readDataset(path);
    expect(report.tasks).toHaveLength(1);
    expect(report.problems.map((p) => `${p.row} ${p.field} ${p.message}`)).toEqual([
      '2 task_id duplicate of row 1 (lcbhard_1, original)',
      '3 (row) expected an object, found an array',
    ]);
  });

  it('says an empty, missing, unreadable or non-array file in one line', async () => {
    const empty = await write('empty.jsonl', '');
    await expect(loadDataset(empty)).rejects.toThrow(new UserError(`${empty}: the file is empty`));
    const blank = await write('blank.json', '  \n');
    await expect(loadDataset(blank)).rejects.toThrow(new UserError(`${blank}: the file is empty`));
    const missing = join(dir, 'nope.jsonl');
    await expect(loadDataset(missing)).rejects.toThrow(new UserError(`${missing}: cannot read: no such file`));
    const object = await write('object.json', '{"a": 1}');
    await expect(loadDataset(object)).rejects.toThrow(new UserError(`${object}: expected a JSON array of rows, found an object`));
    const csv = await write('rows.csv', 'a,b\n');
    await expect(loadDataset(csv)).rejects.toThrow(/unknown file type/);
    // A mistyped name, neither a file nor a known form: the fix names every form.
    const typo = join(dir, 'lcb');
    const error = await loadDataset(typo).catch((e: unknown) => e);
    expect((error as UserError).message).toBe(`${typo}: cannot read: no such file`);
    expect((error as UserError).fix).toMatch(/builtin:lcb, builtin:swe, hf:OWNER\/NAME/);
    const notParquet = await write('fake.parquet', 'hello');
    await expect(loadDataset(notParquet)).rejects.toThrow(/not a readable parquet file/);
    if (process.getuid?.() !== 0) {
      const locked = await write('locked.jsonl', JSON.stringify(lcbRow()));
      await chmod(locked, 0o000);
      await expect(loadDataset(locked)).rejects.toThrow(new UserError(`${locked}: cannot read: permission denied`));
    }
  });
});

describe('built-in suites through the loader', () => {
  it('loads builtin:lcb and builtin:swe', async () => {
    const lcb = await readDataset('builtin:lcb');
    expect(lcb.tasks.length).toBeGreaterThanOrEqual(24);
    expect(lcb.splits).toEqual([{ name: 'original', rows: lcb.tasks.length, tasks: lcb.tasks.length }]);
    const cache = join(dir, 'cache');
    const swe = await readDataset('builtin:swe', { cacheDir: cache });
    expect(swe.tasks.length).toBeGreaterThanOrEqual(4);
    expect(
      await readFile(
        join(
          (swe.tasks[0] as SweTask).repoSource!.type === 'git' ? (swe.tasks[0] as { repoSource: { path: string } }).repoSource.path : '',
          '.git',
          'HEAD',
        ),
        'utf8',
      ),
    ).toMatch(/main/);
    await expect(readDataset('builtin:lcb', { split: 'oneoff' })).rejects.toThrow('builtin:lcb: no split named oneoff (splits: original)');
  });
});
