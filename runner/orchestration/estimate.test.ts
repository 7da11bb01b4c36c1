import { afterEach, describe, expect, it } from 'vitest';
import type { Variant } from '../../core/record.js';
import { PriceTable } from '../../models/index.js';
import { ResultStore } from '../../results/store.js';
import { makeRecord } from '../../results/testing/make-record.js';
import type { Task } from '../../tasks/task.js';
import { parseExperiment } from '../settings/config.js';
import { SUITE_DEFAULTS } from './estimate-defaults.js';
import { estimateRun, expectedSampleCost, MIN_HISTORY, readHistory, sampleExpectation, spreadOf } from './estimate.js';
import { expandMatrix, type DatasetTasks } from './matrix.js';

const prices = new PriceTable();
const SONNET = 'anthropic/claude-sonnet-4-5'; // $3 in, $15 out per million tokens

function lcb(id: string, variant: Variant): Task {
  return { kind: 'lcb', id, variant, source: 'test', prompt: 'def f(x):\n    """"""\n', entryPoint: 'f', test: '', originalTest: '' };
}

/** The planned samples of `models` over three tasks of builtin:lcb in two splits: 6 per model. */
function plan(models: string[]) {
  const tasks: DatasetTasks = new Map((['original', 'conflicting'] as const).map((s) => [s, ['t1', 't2', 't3'].map((id) => lcb(id, s))]));
  const experiment = parseExperiment({ models, splits: ['original', 'conflicting'] }, 'test');
  return expandMatrix(experiment, new Map([['builtin:lcb', tasks]]));
}

let store: ResultStore | undefined;
afterEach(() => store?.close());

/** A store with one run of `model` on builtin:lcb: samples of 1000..10000 input tokens, 100 output each, 1..10 s. */
function storeWithHistory(model: string, outcomeOfFirst: 'failed' | 'error' = 'failed'): ResultStore {
  store = ResultStore.open(':memory:');
  const runId = store.createRun({});
  for (let i = 1; i <= 10; i++) {
    store.saveSample(
      runId,
      makeRecord({
        key: { model, taskId: `t${i}` },
        outcome: i === 1 ? outcomeOfFirst : 'failed',
        inputTokens: 1000 * i,
        outputTokens: 100,
        wallMs: 1000 * i,
      }),
    );
  }
  return store;
}

describe('the spread of earlier samples', () => {
  it('is the 10th to 90th percentile, widened to hold the mean', () => {
    expect(spreadOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual({ low: 1.9, high: 9.1, expected: 5.5 });
    // Nineteen cheap samples and one dear one: the mean lies above the 90th percentile (1), and the range reaches it.
    const skewed = spreadOf([...Array(19).fill(1), 1000]);
    expect(skewed).toEqual({ low: 1, high: 50.95, expected: 50.95 });
  });
});

describe('estimate with no history: the default of the kind of task', () => {
  it('prices the default token use at the model, and says so', () => {
    const [estimate] = estimateRun(plan([SONNET]), { history: [], prices });
    const d = SUITE_DEFAULTS.lcb!;
    const cost = (i: 0 | 1) => (d.inputTokens[i] * 3 + d.outputTokens[i] * 15) / 1e6;
    expect(estimate).toMatchObject({ model: SONNET, samples: 6, secondsLow: 6 * d.seconds[0], secondsHigh: 6 * d.seconds[1] });
    expect(estimate!.costLow).toBeCloseTo(6 * cost(0), 12);
    expect(estimate!.costHigh).toBeCloseTo(6 * cost(1), 12);
    expect(estimate!.source).toBe('builtin:lcb: the default for lcb tasks');
    expect(expectedSampleCost(SONNET, 'builtin:lcb', 'lcb', { history: [], prices })).toBeCloseTo((cost(0) + cost(1)) / 2, 12);
  });

  it('costs a scripted model nothing, unless it is priced as a real model', () => {
    const [free] = estimateRun(plan(['scripted/honest']), { history: [], prices });
    expect([free!.costLow, free!.costHigh]).toEqual([0, 0]);
    const [priced] = estimateRun(plan(['scripted/honest']), { history: [], prices, scriptedPriceAs: SONNET });
    const [real] = estimateRun(plan([SONNET]), { history: [], prices });
    expect([priced!.costLow, priced!.costHigh]).toEqual([real!.costLow, real!.costHigh]);
    expect(priced!.source).toContain(`priced as ${SONNET}`);
  });

  it('says unknown, not zero, for a model without a price or a kind without a default', () => {
    const [unpriced] = estimateRun(plan(['openai-compatible/qwen']), { history: [], prices });
    expect([unpriced!.costLow, unpriced!.costHigh]).toEqual([null, null]);
    expect(unpriced!.secondsHigh).not.toBeNull();
    expect(unpriced!.source).toContain('no price known for openai-compatible/qwen');
    const toy = sampleExpectation(SONNET, 'file:toy.jsonl', 'toy', { history: [], prices });
    expect(toy).toMatchObject({ cost: null, seconds: null });
    expect(toy.source).toContain('no default for toy tasks');
  });
});

describe('estimate from earlier samples in the store', () => {
  it("prices each earlier sample's tokens at the model and takes the spread of them", () => {
    const history = readHistory(storeWithHistory(SONNET), ['builtin:lcb']);
    expect(history).toHaveLength(10);
    const [estimate] = estimateRun(plan([SONNET]), { history, prices });
    // Sample i: 1000·i input at $3 and 100 output at $15 per million; 1·i seconds.
    const costs = Array.from({ length: 10 }, (_, i) => (1000 * (i + 1) * 3 + 100 * 15) / 1e6);
    const expected = spreadOf(costs);
    expect(estimate!.costLow).toBeCloseTo(6 * expected.low, 12);
    expect(estimate!.costHigh).toBeCloseTo(6 * expected.high, 12);
    expect(estimate!.secondsLow).toBeCloseTo(6 * 1.9, 9);
    expect(estimate!.secondsHigh).toBeCloseTo(6 * 9.1, 9);
    expect(estimate!.source).toBe('builtin:lcb: 10 earlier samples of this model');
  });

  it('leaves out samples that ended in an infrastructure error', () => {
    expect(readHistory(storeWithHistory(SONNET, 'error'), ['builtin:lcb'])).toHaveLength(9);
  });

  it("uses other real models' samples for a real model without its own, never a scripted policy's", () => {
    const history = readHistory(storeWithHistory('openai/gpt-5'), ['builtin:lcb']);
    expect(estimateRun(plan([SONNET]), { history, prices })[0]!.source).toBe('builtin:lcb: 10 earlier samples of other models');
    expect(estimateRun(plan(['scripted/honest']), { history, prices })[0]!.source).toBe('builtin:lcb: the default for lcb tasks');
    // Another dataset's samples say nothing of this one.
    expect(readHistory(store!, ['builtin:swe'])).toEqual([]);
  });

  it(`needs ${MIN_HISTORY} earlier samples before it trusts them over the default`, () => {
    const few = readHistory(storeWithHistory(SONNET), ['builtin:lcb']).slice(0, MIN_HISTORY - 1);
    expect(estimateRun(plan([SONNET]), { history: few, prices })[0]!.source).toBe('builtin:lcb: the default for lcb tasks');
  });
});
