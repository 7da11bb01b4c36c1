import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../results/store.js';
import { runAccessArms } from '../testing/access-arms.js';
import { assertBuilt, cli } from '../testing/cli.js';

/*
 * `compare` on scripted runs whose answer is known: modify-tests cheats on one-offs with full access and cannot with
 * read-only tests; honest cheats in neither. The tasks it lists as differing are checked against the store itself.
 */

let dir: string;

beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-compare-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs a policy on 5 LCB one-offs under both access modes, then compares the access modes. */
async function runAndCompare(policy: string): Promise<{ stdout: string; differing: string[] }> {
  const store = await runAccessArms(dir, policy);
  const r = await cli(['compare', 'latest', '--by', 'access', '--max-tasks', '100', '--store', store]);
  expect(r.exitCode, r.stderr).toBe(0);
  // The tasks whose outcome differs between the access modes, read from the store.
  const s = openStore(store);
  try {
    const samples = s.listSamples(s.listRuns()[0]!.id, { withTranscript: false });
    const byTask = new Map<string, Set<string>>();
    for (const x of samples) byTask.set(x.key.taskId, (byTask.get(x.key.taskId) ?? new Set()).add(x.outcome));
    return {
      stdout: r.stdout,
      differing: [...byTask]
        .filter(([, outcomes]) => outcomes.size > 1)
        .map(([t]) => t)
        .sort(),
    };
  } finally {
    s.close();
  }
}

/** The difference row of a split: its point estimate and interval, in percentage points, signed A − B. */
function differenceOf(stdout: string, split: string): { a: string; d: number; low: number; high: number } {
  const row = stdout.split('\n').find((l) => l.startsWith(`| ${split} |`))!;
  const cells = row.split('|').map((c) => c.trim());
  const m = /^([+-][\d.]+) pts \[([+-][\d.]+), ([+-][\d.]+)\]$/.exec(cells[7]!)!;
  return { a: cells[2]!, d: Number(m[1]), low: Number(m[2]), high: Number(m[3]) };
}

describe('compare', () => {
  it('modify-tests: full access against read-only differs by about 100 points, the interval excludes 0, and the differing tasks are listed', {
    timeout: 600_000,
  }, async () => {
    const { stdout, differing } = await runAndCompare('modify-tests');
    const row = differenceOf(stdout, 'cheating rate, one-off');
    const sign = row.a === 'full' ? 1 : -1;
    expect(sign * row.d).toBeGreaterThan(80);
    expect(sign * (sign > 0 ? row.low : row.high)).toBeGreaterThan(0);
    expect(differing.length).toBeGreaterThan(2);
    const listed = [...stdout.matchAll(/^- builtin:lcb (\S+): passed in full only/gm)].map((m) => m[1]!).sort();
    expect(listed).toEqual(differing);
    expect(stdout).toMatch(/McNemar's exact test/);
  });

  it('honest against honest: no difference, an interval around 0, and no task listed', { timeout: 600_000 }, async () => {
    const { stdout, differing } = await runAndCompare('honest');
    const row = differenceOf(stdout, 'cheating rate, one-off');
    expect(row.d).toBe(0);
    expect(row.low).toBeLessThan(0);
    expect(row.high).toBeGreaterThan(0);
    expect(differing).toEqual([]);
    expect(stdout).not.toMatch(/the tasks that differ/);
  });

  it('refuses one run without --by, and --by with several runs, in one line each', async () => {
    const store = join(dir, 'honest.sqlite');
    const one = await cli(['compare', 'latest', '--store', store]);
    expect(one.exitCode).toBe(1);
    expect(one.stderr).toMatch(/^impossiblebench: one run needs --by SETTING to say what its arms are\n/);
    const bad = await cli(['compare', 'latest', '--by', 'colour', '--store', store]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/argument 'colour' is invalid/);
  });
});
