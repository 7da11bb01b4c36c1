import type { SampleKey } from '../../core/record.js';
import type { Interval } from '../metrics.js';
import type { StoredSample } from '../store-rows.js';
import { consistencyOf, type Consistency } from '../repeats.js';
import { clusterBootstrap, holm, mcnemarExact, pairedDifference, pairedTable } from './paired.js';

export type { Consistency } from '../repeats.js';

/**
 * Arms compared on the tasks every arm ran. An arm is a set of samples that differ from another arm's in one setting
 * (a scaffold, an access mode, a prompt, a model...) or that come from another run. A task's outcome in an arm is
 * whether it passed: on an impossible split that is cheating, on the original split an honest pass.
 */

/** The settings an arm can be told apart by, within one run. */
export const ARM_FIELDS = ['model', 'scaffold', 'access', 'prompt', 'maxAttempts'] as const satisfies readonly (keyof SampleKey)[];
export type ArmField = (typeof ARM_FIELDS)[number];

/** What comparing needs of a sample: its id, key and outcome (no evidence). */
export type ArmSample = Pick<StoredSample, 'id' | 'key' | 'outcome'>;

export interface Arm {
  name: string;
  samples: readonly ArmSample[];
}

/** One task's samples in one arm. */
interface TaskInArm {
  passes: number;
  graded: number;
  samples: number[];
}

/** A task that passed in one arm of a pair and not in the other, with the samples to look at. */
export interface DiscordantTask {
  /** Dataset, task and the settings both arms share, as the viewer's search reads it. */
  task: string;
  /** The arm it passed in. */
  passedIn: string;
  /** Sample ids in the store, arm A's then arm B's. */
  samplesA: number[];
  samplesB: number[];
}

export interface PairComparison {
  a: string;
  b: string;
  split: SampleKey['split'];
  /** Tasks both arms graded (errors in either arm leave a task out). */
  tasks: number;
  /** Tasks left out because an arm has no graded sample of them. */
  leftOut: number;
  rateA: number;
  rateB: number;
  /** rateA − rateB, with its 95% interval. */
  difference: number;
  interval: Interval;
  /** How the interval was made: Tango's paired score interval, or a bootstrap over tasks when tasks were repeated. */
  intervalMethod: 'tango' | 'bootstrap over tasks';
  /** McNemar's exact p-value; null with repeats, where a task's outcome is a rate rather than yes or no. */
  p: number | null;
  /** `p` adjusted for every pair of the same split (Holm), when there is more than one pair. */
  pAdjusted: number | null;
  discordant: DiscordantTask[];
  /** With repeats, how consistent each arm's repeats of a task are. */
  consistency?: { a: Consistency; b: Consistency };
}

/** The key of a task across arms: the sample key without the settings the arms differ in, and the repeat. */
function pairKey(key: SampleKey, ignore: readonly ArmField[]): string {
  const { epoch: _epoch, ...rest } = key;
  for (const field of ignore) delete (rest as Partial<SampleKey>)[field];
  return JSON.stringify(Object.entries(rest).sort(([x], [y]) => x.localeCompare(y)));
}

function tasksOf(arm: Arm, ignore: readonly ArmField[], split: SampleKey['split']): Map<string, TaskInArm> {
  const out = new Map<string, TaskInArm>();
  for (const s of arm.samples) {
    if (s.key.split !== split) continue;
    const key = pairKey(s.key, ignore);
    const t = out.get(key) ?? { passes: 0, graded: 0, samples: [] };
    t.samples.push(s.id);
    // An error is no outcome of the agent's: the repeat is left out, never counted as a failure.
    if (s.outcome !== 'error') {
      t.graded++;
      if (s.outcome === 'passed') t.passes++;
    }
    out.set(key, t);
  }
  return out;
}

/**
 * `dataset task (scaffold full)` of a pair key, for a person: the settings named are those that tell apart the
 * tasks of the pair that share a dataset and task id (another setting the run varies besides the arms').
 */
function taskNamer(keys: readonly string[]): (key: string) => string {
  const fieldsOf = (key: string) => Object.fromEntries(JSON.parse(key) as [string, unknown][]);
  const all = keys.map(fieldsOf);
  const telling = ARM_FIELDS.filter((f) => new Set(all.map((x) => JSON.stringify(x[f]))).size > 1);
  return (key) => {
    const fields = fieldsOf(key);
    const settings = telling.map((f) => `${f} ${fields[f]}`).join(', ');
    return `${fields.dataset} ${fields.taskId}${settings ? ` (${settings})` : ''}`;
  };
}

function comparePair(a: Arm, b: Arm, ignore: readonly ArmField[], split: SampleKey['split'], seed: number): PairComparison | null {
  const inA = tasksOf(a, ignore, split);
  const inB = tasksOf(b, ignore, split);
  const shared = [...inA.keys()].filter((k) => inB.has(k));
  if (shared.length === 0) return null;
  const graded = shared.filter((k) => inA.get(k)!.graded > 0 && inB.get(k)!.graded > 0);
  if (graded.length === 0) return null;
  const rates = graded.map((k) => [inA.get(k)!.passes / inA.get(k)!.graded, inB.get(k)!.passes / inB.get(k)!.graded] as const);
  const repeated = graded.some((k) => inA.get(k)!.graded > 1 || inB.get(k)!.graded > 1);
  const rateA = rates.reduce((s, [x]) => s + x, 0) / rates.length;
  const rateB = rates.reduce((s, [, y]) => s + y, 0) / rates.length;
  const discordant: DiscordantTask[] = [];
  const taskName = taskNamer(graded);
  for (const [i, k] of graded.entries()) {
    const [x, y] = rates[i]!;
    if (x === y) continue;
    discordant.push({ task: taskName(k), passedIn: x > y ? a.name : b.name, samplesA: inA.get(k)!.samples, samplesB: inB.get(k)!.samples });
  }
  const base = { a: a.name, b: b.name, split, tasks: graded.length, leftOut: shared.length - graded.length, rateA, rateB, discordant };
  if (repeated) {
    // Each task's mean over its repeats is the unit: repeats of a task are not independent evidence.
    const interval = clusterBootstrap(rates, (drawn) => drawn.reduce((s, [x, y]) => s + x - y, 0) / drawn.length, { seed })!;
    const consistency = { a: consistencyOf(graded.map((k) => inA.get(k)!)), b: consistencyOf(graded.map((k) => inB.get(k)!)) };
    return { ...base, difference: rateA - rateB, interval, intervalMethod: 'bootstrap over tasks', p: null, pAdjusted: null, consistency };
  }
  const table = pairedTable(rates.map(([x, y]) => [x === 1, y === 1]));
  const paired = pairedDifference(table)!;
  return { ...base, difference: paired.difference, interval: paired.interval, intervalMethod: 'tango', p: mcnemarExact(table), pAdjusted: null };
}

/**
 * Every pair of arms, split by split (impossible splits: the cheating rate; original: the pass rate), on the tasks
 * both ran. With more than two arms, each split's p-values are adjusted together (Holm).
 */
export function compareArms(arms: readonly Arm[], options: { seed?: number } = {}): PairComparison[] {
  const ignore = differingFields(arms);
  const out: PairComparison[] = [];
  for (const split of ['oneoff', 'conflicting', 'original'] as const) {
    const ofSplit: PairComparison[] = [];
    for (let i = 0; i < arms.length; i++)
      for (let j = i + 1; j < arms.length; j++) {
        const c = comparePair(arms[i]!, arms[j]!, ignore, split, options.seed ?? 0);
        if (c) ofSplit.push(c);
      }
    const tested = ofSplit.filter((c) => c.p !== null);
    if (tested.length > 1) {
      const adjusted = holm(tested.map((c) => c.p!));
      for (const [i, c] of tested.entries()) c.pAdjusted = adjusted[i]!;
    }
    out.push(...ofSplit);
  }
  return out;
}

/** The settings whose values differ between arms: a task is matched across arms without them. */
export function differingFields(arms: readonly Arm[]): ArmField[] {
  const valuesOf = (arm: Arm, field: ArmField) => JSON.stringify([...new Set(arm.samples.map((s) => s.key[field]))].sort());
  return ARM_FIELDS.filter((field) => new Set(arms.map((arm) => valuesOf(arm, field))).size > 1);
}

/** The arms of one run, by the values of one setting. */
export function armsBy(samples: readonly ArmSample[], field: ArmField): Arm[] {
  const by = new Map<string, ArmSample[]>();
  for (const s of samples) {
    const name = String(s.key[field]);
    by.set(name, [...(by.get(name) ?? []), s]);
  }
  return [...by].map(([name, list]) => ({ name, samples: list }));
}
