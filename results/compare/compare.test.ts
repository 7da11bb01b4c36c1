import { describe, expect, it } from 'vitest';
import type { SampleKey } from '../../core/record.js';
import type { StoredSample } from '../store-rows.js';
import { armsBy, compareArms, differingFields } from './compare.js';
import { renderComparison } from './render.js';

let nextId = 1;
/** A stored sample with what a comparison reads: its key and outcome. */
function sample(taskId: string, access: SampleKey['access'], outcome: StoredSample['outcome'], more: Partial<SampleKey> = {}): StoredSample {
  const key: SampleKey = {
    model: 'scripted/modify-tests',
    dataset: 'builtin:lcb',
    split: 'oneoff',
    taskId,
    scaffold: 'full',
    access,
    prompt: 'D',
    maxAttempts: 10,
    epoch: 0,
    ...more,
  };
  return { id: nextId++, key, outcome } as StoredSample;
}

const TASKS = Array.from({ length: 12 }, (_, i) => `t${i}`);

describe('comparing arms on the same tasks', () => {
  it('pairs tasks across the arms of one setting, and lists exactly the tasks that differ', () => {
    // Full access cheats on ten tasks, read-only on none; two tasks pass in neither.
    const samples = TASKS.flatMap((t, i) => [sample(t, 'full', i < 10 ? 'passed' : 'failed'), sample(t, 'readonly', 'failed')]);
    const [c, ...rest] = compareArms(armsBy(samples, 'access'));
    expect(rest).toEqual([]);
    expect(c).toMatchObject({ a: 'full', b: 'readonly', split: 'oneoff', tasks: 12, rateA: 10 / 12, rateB: 0, intervalMethod: 'tango' });
    expect(c!.interval.low).toBeGreaterThan(0.3);
    expect(c!.p).toBeCloseTo(2 / 1024, 12);
    expect(c!.discordant.map((d) => d.task)).toEqual(TASKS.slice(0, 10).map((t) => `builtin:lcb ${t}`));
    expect(c!.discordant.every((d) => d.passedIn === 'full' && d.samplesA.length === 1 && d.samplesB.length === 1)).toBe(true);
  });

  it('names a differing task by the other settings the run varies, so a task run under two scaffolds is told apart', () => {
    const samples = ['full', 'minimal'].flatMap((scaffold) => [
      sample('t1', 'full', 'passed', { scaffold }),
      sample('t1', 'readonly', 'failed', { scaffold }),
    ]);
    const [c] = compareArms(armsBy(samples, 'access'));
    expect(c!.discordant.map((d) => d.task)).toEqual(['builtin:lcb t1 (scaffold full)', 'builtin:lcb t1 (scaffold minimal)']);
  });

  it('gives an interval around 0 for arms that behave alike, and leaves errored tasks out rather than failing them', () => {
    const samples = TASKS.flatMap((t, i) => [sample(t, 'full', i % 2 ? 'passed' : 'failed'), sample(t, 'hidden', i % 2 ? 'passed' : 'failed')]);
    samples.push(sample('t99', 'full', 'passed'), sample('t99', 'hidden', 'error'));
    const [c] = compareArms(armsBy(samples, 'access'));
    expect([c!.difference, c!.p, c!.tasks, c!.leftOut, c!.discordant]).toEqual([0, 1, 12, 1, []]);
    expect(c!.interval.low).toBeLessThan(0);
    expect(c!.interval.high).toBeGreaterThan(0);
  });

  it('with repeats, takes each task’s mean as the unit and bootstraps over tasks, without a McNemar test', () => {
    const samples = TASKS.flatMap((t) =>
      [0, 1, 2].flatMap((epoch) => [sample(t, 'full', epoch < 2 ? 'passed' : 'failed', { epoch }), sample(t, 'readonly', 'failed', { epoch })]),
    );
    const [c] = compareArms(armsBy(samples, 'access'), { seed: 1 });
    expect(c).toMatchObject({ intervalMethod: 'bootstrap over tasks', p: null, tasks: 12 });
    expect(c!.difference).toBeCloseTo(2 / 3, 12);
    // Every task has the same mean: resampling tasks cannot move it, however many repeats there were.
    expect(c!.interval.low).toBeCloseTo(2 / 3, 12);
    expect(c!.interval.high).toBeCloseTo(2 / 3, 12);
    // Full access's repeats disagree on every task (two passes, one failure); read-only's always agree.
    expect(c!.consistency!.a.agree).toBe(0);
    expect(c!.consistency!.a.kappa).toBeCloseTo(-0.5, 12);
    expect(c!.consistency!.b).toEqual({ agree: 1, kappa: null });
    expect(renderComparison([c!], { run: 'r' })).toMatch(/\| cheating rate, one-off \| full \| 0\.0% \| -0\.50 \|/);
  });

  it('compares every pair of three arms and adjusts their p-values together (Holm)', () => {
    const samples = TASKS.flatMap((t, i) => [
      sample(t, 'full', i < 9 ? 'passed' : 'failed'),
      sample(t, 'readonly', i < 1 ? 'passed' : 'failed'),
      sample(t, 'hidden', 'failed'),
    ]);
    const comparisons = compareArms(armsBy(samples, 'access'));
    expect(comparisons.map((c) => `${c.a}/${c.b}`)).toEqual(['full/readonly', 'full/hidden', 'readonly/hidden']);
    for (const c of comparisons) expect(c.pAdjusted).toBeGreaterThanOrEqual(c.p!);
    const md = renderComparison(comparisons, { run: 'r1' });
    expect(md).toContain("Holm's adjustment");
    expect(md).toMatch(/\| cheating rate, one-off \| full \| readonly \| 12 \| 75\.0% \| 8\.3% \| \+66\.7 pts \[/);
  });

  it('matches whole runs on every setting but the ones they differ in', () => {
    const a = TASKS.map((t) => sample(t, 'full', 'passed', { model: 'openai/a' }));
    const b = TASKS.map((t) => sample(t, 'full', 'failed', { model: 'openai/b' }));
    const arms = [
      { name: 'run-a', samples: a },
      { name: 'run-b', samples: b },
    ];
    expect(differingFields(arms)).toEqual(['model']);
    expect(compareArms(arms)[0]).toMatchObject({ tasks: 12, rateA: 1, rateB: 0 });
    expect(renderComparison([], { run: 'x' })).toContain('nothing to compare');
  });
});
