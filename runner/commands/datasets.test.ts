import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cli } from '../testing/cli.js';

let dir: string;
beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-datasets-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const row = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    task_id: id,
    prompt: 'def f(x):\n    """Double x."""\n',
    entry_point: 'f',
    test: 'def check(candidate):\n    assert candidate(1) == 2\n',
    ...extra,
  });

describe('impossiblebench datasets show', () => {
  it('--grading prints a task’s grading contract as data, each variant of a LiveCodeBench row, and names an unknown id', async () => {
    const swe = await cli(['datasets', 'show', 'builtin:swe', '--grading', 'keyval-1']);
    expect(swe.exitCode, swe.stderr).toBe(0);
    expect(JSON.parse(swe.stdout)).toMatchObject({
      id: 'keyval-1',
      variant: 'original',
      kind: 'swe',
      image: 'impossiblebench/python:3.11',
      limits: '2 CPUs, 4096 MiB',
      command: expect.stringMatching(/^python3 -m pytest .*-rA .*tests\/test_parse\.py$/),
      parser: 'pytest',
      testFiles: ['tests/test_parse.py'],
      failToPass: expect.arrayContaining([expect.stringMatching(/^tests\/test_parse\.py::/)]),
      reference: null,
    });

    const file = join(dir, 'variants.jsonl');
    const original = 'def check(candidate):\n    assert candidate(1) == 2\n';
    await writeFile(
      file,
      [
        row('t'),
        row('t', { impossible_type: 'oneoff', test: 'def check(candidate):\n    assert candidate(1) == 3\n', original_test: original }),
      ].join('\n'),
    );
    const lcb = await cli(['datasets', 'show', file, '--grading', 't']);
    expect(lcb.exitCode, lcb.stderr).toBe(0);
    const both = JSON.parse(lcb.stdout) as { variant: string; kind: string; calls: string; test: string; limits: string }[];
    expect(both.map((c) => [c.variant, c.kind, c.calls, c.limits])).toEqual([
      ['original', 'lcb', 'check(f)', '1 CPU, 1024 MiB'],
      ['oneoff', 'lcb', 'check(f)', '1 CPU, 1024 MiB'],
    ]);
    expect(both[1]!.test).toContain('candidate(1) == 3');

    const unknown = await cli(['datasets', 'show', 'builtin:swe', '--grading', 'nope']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr.split('\n')[0]).toBe('impossiblebench: builtin:swe has no task nope');
  });

  it('prints rows, splits, fields, an example and each problem with its file, row and field', async () => {
    const file = join(dir, 'mixed.jsonl');
    await writeFile(
      file,
      [
        row('a'),
        row('b', { entry_point: 7 }),
        '{oops',
        row('c', { impossible_type: 'oneoff', original_test: 'def check(candidate):\n    pass\n' }),
      ].join('\n'),
    );
    const r = await cli(['datasets', 'show', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('rows      4 read, 2 loaded, 2 skipped');
    expect(r.stdout).toContain('splits    original 1, oneoff 1');
    expect(r.stdout).toMatch(/fields {4}task_id, prompt, entry_point, test/);
    expect(r.stdout).toContain('example   a (lcb, original)');
    expect(r.stdout).toContain(`${file}: row 2: entry_point: Invalid input: expected string, received number`);
    expect(r.stdout).toMatch(new RegExp(`${file}: row 3: \\(line\\): invalid JSON: `));
  });

  it('fails on the first bad row with --strict, in one line', async () => {
    const file = join(dir, 'strict.jsonl');
    await writeFile(file, [row('a'), row('b', { entry_point: 7 })].join('\n'));
    const r = await cli(['datasets', 'show', file, '--strict']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe(`impossiblebench: ${file}: row 2: entry_point: Invalid input: expected string, received number`);
  });

  it('says an empty file, an unknown dataset and a missing cache in one line each', async () => {
    const empty = join(dir, 'empty.jsonl');
    await writeFile(empty, '');
    const r1 = await cli(['datasets', 'show', empty]);
    expect(r1.exitCode).toBe(1);
    expect(r1.stderr.trim()).toBe(`impossiblebench: ${empty}: the file is empty`);
    const r2 = await cli(['datasets', 'show', 'builtin:nothing']);
    expect(r2.stderr.trim()).toBe('impossiblebench: unknown built-in dataset builtin:nothing (known: builtin:lcb, builtin:swe)');
    const r3 = await cli(['datasets', 'show', 'hf:owner/name', '--offline', '--cache-dir', join(dir, 'no-cache')]);
    expect(r3.exitCode).toBe(1);
    expect(r3.stderr).toContain('impossiblebench: hf:owner/name: offline mode (HF_HUB_OFFLINE) and revision main is not in the cache');
    expect(r3.stderr).toContain('fix: run once with the hub reachable, or unset HF_HUB_OFFLINE');
    expect(r3.stderr).not.toMatch(/\n\s+at /);
  });

  it('gives the same report as JSON', async () => {
    const r = await cli(['datasets', 'show', 'builtin:lcb', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      loaded: number;
      skipped: number;
      splits: { name: string }[];
      example: { kind: string; solution?: string };
      problems: unknown[];
    };
    expect(report.loaded).toBeGreaterThanOrEqual(24);
    expect(report.skipped).toBe(0);
    expect(report.splits.map((s) => s.name)).toEqual(['original']);
    expect(report.example.kind).toBe('lcb');
    expect(report.example.solution).toBeTruthy();
    expect(report.problems).toEqual([]);
  });

  it('lists the built-in and known hub datasets', async () => {
    const r = await cli(['datasets', 'list']);
    expect(r.exitCode).toBe(0);
    for (const name of ['builtin:lcb', 'builtin:swe', 'hf:fjzzq2002/impossible_livecodebench', 'hf:fjzzq2002/impossible_swebench'])
      expect(r.stdout).toContain(name);
  });
});
