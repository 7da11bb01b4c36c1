import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wilson } from '../../results/metrics.js';
import { openStore } from '../../results/store.js';
import { assertBuilt, cli } from '../testing/cli.js';

/*
 * A run with repeats of the coin-flip policy, which cheats on some repeats of a task and not others: the report takes
 * the task as the unit. Its interval is checked against the pooled Wilson interval of the same samples, and its
 * agreement and kappa against a count made here from the stored outcomes.
 */

const TASKS = 6;
let dir: string;
let store: string;

beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(join(tmpdir(), 'ib-epochs-'));
  store = join(dir, 'epochs.sqlite');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Each task's stored outcomes over its repeats, passed or not, read straight from the store. */
function outcomesByTask(): Map<string, boolean[]> {
  const s = openStore(store);
  try {
    const byTask = new Map<string, boolean[]>();
    for (const x of s.listSamples(s.listRuns()[0]!.id, { withTranscript: false })) {
      expect(x.outcome, `${x.keyString} ended in an error`).not.toBe('error');
      byTask.set(x.key.taskId, [...(byTask.get(x.key.taskId) ?? []), x.outcome === 'passed']);
    }
    return byTask;
  } finally {
    s.close();
  }
}

/** Fleiss' kappa by its textbook definition, for tasks with the same number of repeats. */
function fleissByHand(rows: boolean[][]): number {
  const n = rows[0]!.length;
  const share = rows.flat().filter(Boolean).length / (rows.length * n);
  const agreement = (row: boolean[]) => {
    const yes = row.filter(Boolean).length;
    const no = n - yes;
    return (yes * (yes - 1) + no * (no - 1)) / (n * (n - 1));
  };
  const observed = rows.reduce((s, r) => s + agreement(r), 0) / rows.length;
  const chance = share ** 2 + (1 - share) ** 2;
  return (observed - chance) / (1 - chance);
}

describe('run --epochs 3 of a policy that differs between repeats', () => {
  it('reports a bootstrap interval over tasks wider than the pooled one, and agreement and kappa as counted by hand', {
    timeout: 900_000,
  }, async () => {
    const run = await cli(
      [
        'run',
        '--model',
        'scripted/coin-flip',
        '--dataset',
        'builtin:lcb',
        '--split',
        'oneoff',
        '--scaffold',
        'minimal',
        '--epochs',
        '3',
        '--limit',
        String(TASKS),
        '--store',
        store,
      ],
      { cwd: dir },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const report = await cli(['report', 'latest', '--store', store, '--html', join(dir, 'report.html')]);
    expect(report.exitCode, report.stderr).toBe(0);
    const md = report.stdout;

    const rows = [...outcomesByTask().values()];
    expect(rows.length).toBe(TASKS);
    expect(rows.every((r) => r.length === 3)).toBe(true);
    const passes = rows.flat().filter(Boolean).length;
    // The policy must both cheat and not cheat on the same task for the run to test anything.
    expect(rows.some((r) => r.includes(true) && r.includes(false))).toBe(true);

    const cell = new RegExp(
      `(\\d+\\.\\d)% \\[([\\d.]+)–([\\d.]+)\\] \\(${passes}/${rows.length * 3}; interval: bootstrap over ${TASKS} tasks, 3 repeats\\)`,
    ).exec(md);
    expect(cell, md).not.toBeNull();
    const [, rate, low, high] = cell!.map(Number);
    const taskMean = rows.reduce((s, r) => s + r.filter(Boolean).length / 3, 0) / rows.length;
    expect(rate).toBeCloseTo(taskMean * 100, 1);
    const pooled = wilson(passes, rows.length * 3)!;
    expect(high! - low!).toBeGreaterThan((pooled.high - pooled.low) * 100);

    const agree = rows.filter((r) => r.every((x) => x === r[0])).length / rows.length;
    const consistency = md
      .split('## How consistent the repeats are')[1]!
      .split('\n')
      .find((l) => l.startsWith('| scripted/coin-flip'))!;
    const fields = consistency.split('|').map((c) => c.trim());
    expect(fields.slice(-3, -1)).toEqual([`${(agree * 100).toFixed(1)}%`, fleissByHand(rows).toFixed(2)]);

    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('"repeats":{');
  });
});
