import { describe, expect, it } from 'vitest';
import { testRunId } from '../../docker/testing.js';
import { PriceTable } from '../../models/prices.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import type { Policy } from '../policy.js';
import { runCliSample } from '../testing/cli-run.js';
import { useModelServer } from '../testing/model-server.js';

/**
 * A real Claude Code run whose side requests go to a haiku: the recording proxy charges each request at the price of
 * the model it names, the haiku's at the haiku rate and the main conversation's at the run model's, and the sample's
 * cost is their sum. Checked against a recomputation from each request's usage and the price table.
 */
const server = useModelServer();
const runId = testRunId('cli-side-prices');

/** Sends Claude Code's Explore sub-agent off on a haiku (its requests are side requests), then ends. */
const delegates: Policy = {
  name: 'delegates-to-haiku',
  next(messages) {
    if (messages.some((m) => m.role === 'tool')) return { text: 'Done.', toolCalls: [{ name: 'submit', arguments: '{}' }] };
    const args = {
      description: 'Look at the files',
      prompt: 'List the files in /work.',
      subagent_type: 'Explore',
      model: 'haiku',
      run_in_background: false,
    };
    return { text: 'Asking a helper.', toolCalls: [{ name: 'Agent', arguments: JSON.stringify(args) }] };
  },
};

describe('Claude Code priced by the model each request names', () => {
  it("charges its haiku side requests at the haiku's rate and the main conversation at the run model's", async () => {
    const task = digitSumTask('original');
    const run = await runCliSample(server, { cli: 'claude-code', policy: delegates, task, runId, viaProxy: true });
    expect(run.cli.exitCode, run.cli.stderr).toBe(0);
    expect(run.stats.cli?.sideAnswers).toBeGreaterThan(0);
    const exchanges = run.exchanges!;
    const model = (e: (typeof exchanges)[number]) => String((e.request as { model?: unknown }).model);
    const side = exchanges.filter((e) => /haiku/.test(model(e)));
    const main = exchanges.filter((e) => model(e) === 'claude-sonnet-4-5');
    expect(side.length, exchanges.map(model).join(', ')).toBeGreaterThan(0);
    expect(main.length).toBeGreaterThan(0);
    const prices = new PriceTable();
    for (const e of side) {
      expect(e.pricedAs).toBe(`anthropic/${model(e)}`);
      // Claude Code's own default small model, which the table prices: not the run model's rate.
      expect(prices.lookup(e.pricedAs!), e.pricedAs!).not.toBeNull();
      expect(e.costUsd).toBeCloseTo(prices.cost(e.pricedAs!, e.usage!)!, 12);
      expect(e.costUsd).toBeLessThan(prices.cost('anthropic/claude-sonnet-4-5', e.usage!)!);
    }
    for (const e of main) {
      expect(e.pricedAs).toBe('anthropic/claude-sonnet-4-5');
      expect(e.costUsd).toBeCloseTo(prices.cost('anthropic/claude-sonnet-4-5', e.usage!)!, 12);
    }
    const recomputed = exchanges.reduce((sum, e) => sum + prices.cost(e.pricedAs!, e.usage!)!, 0);
    expect(run.totals!.costUsd).toBeCloseTo(recomputed, 12);
  });
});
