/**
 * What prompt caching saves on a long sample, as the providers bill it.
 *
 *   npm run bench:cost [-- --turns N --samples N]
 *
 * Runs a SWE-style transcript of N tool-calling turns (default 30; `simulated/testing/swe-transcript.ts`) through the
 * real Anthropic and OpenAI clients, named as real models (anthropic/claude-sonnet-4-5, openai/gpt-5) and pointed at
 * the local model server, which reports the cache usage as each provider does. Each sample's usage and billed cost go
 * into a results store like any run's, and every figure below is read back from it and priced with the price table:
 * - Anthropic: the billed cost with cache breakpoints ÷ the same transcript with `promptCache: false`; the goal is
 *   at most 0.35.
 * - OpenAI (which caches by itself): the billed cost ÷ the same stored usage priced with its cached tokens as plain
 *   input, and a check that the billed cost is OpenAI's cached-price formula worked out by hand from the stored usage.
 * - A demo-sized sweep (the demo's matrix: every reference policy × 3 splits × 2 scaffolds × 3 access modes on one task
 *   of each built-in suite) for both models, each sample costing what this one did.
 * Exits 1 when the Anthropic ratio misses its goal or the OpenAI cost differs from the formula. No Docker needed.
 */
import { parseArgs } from 'node:util';
import { DEMO_SUITE, DEMO_SUITES, DEMO_TASKS } from '../runner/commands/demo.js';
import { POLICY_NAMES } from '../simulated/policies/index.js';
import { makeRecord } from '../results/testing/make-record.js';
import { ResultStore, type StoredSample } from '../results/store.js';
import { createModelClient, PriceTable } from '../models/index.js';
import { CONTEXT } from '../simulated/testing/echo.js';
import { startModelServer, type ModelServer } from '../simulated/server/index.js';
import { runSweTranscript, sweTranscriptPolicy } from '../simulated/testing/swe-transcript.js';

/** The demo's matrix at its defaults. */
const DEMO_SAMPLES = POLICY_NAMES.length * 3 * 2 * 3 * DEMO_SUITES[DEMO_SUITE].length * DEMO_TASKS;

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '30' },
    samples: { type: 'string', default: String(DEMO_SAMPLES) },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    [
      'usage: npm run bench:cost -- [options]',
      '  --turns N     tool-calling turns of the transcript (default 30)',
      `  --samples N   samples of the sweep priced at the end (default ${DEMO_SAMPLES}, the demo's matrix)`,
    ].join('\n'),
  );
  process.exit(0);
}
const turns = Number(values.turns);
const samples = Number(values.samples);
if (!(Number.isInteger(turns) && turns > 0 && Number.isInteger(samples) && samples > 0)) {
  console.error('bench:cost: --turns and --samples take positive integers');
  process.exit(2);
}

const ANTHROPIC = 'anthropic/claude-sonnet-4-5';
const OPENAI = 'openai/gpt-5';
/** OpenAI's published gpt-5 rates, USD per million tokens: input, cached input, output. */
const GPT5 = { input: 1.25, cachedInput: 0.125, output: 10 };
const GOAL = 0.35;
const prices = new PriceTable();

/** One transcript on `spec` through its real client and the server's session; stored as a sample of `runId`. */
async function runSample(server: ModelServer, store: ResultStore, runId: string, spec: string, promptCache: boolean): Promise<StoredSample> {
  const token = server.openSession(sweTranscriptPolicy(turns), CONTEXT, { key: `${spec}-${promptCache}` });
  const baseUrl = spec.startsWith('anthropic/') ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const client = createModelClient(spec, { baseUrl, apiKey: token, prices, promptCache });
  const started = new Date();
  const generations = await runSweTranscript(client, turns, { cacheKey: `${runId}/${spec}` });
  await client.close?.();
  server.closeSession(token);
  const total = (f: (u: (typeof generations)[number]['usage']) => number) => generations.reduce((n, g) => n + f(g.usage), 0);
  const record = makeRecord({
    key: { model: spec, dataset: 'builtin:swe', taskId: `transcript-${turns}`, prompt: promptCache ? 'cached' : 'uncached' },
    outcome: 'passed',
    attempts: 1,
    inputTokens: total((u) => u.inputTokens),
    cacheReadTokens: total((u) => u.cacheReadTokens),
    cacheWriteTokens: total((u) => u.cacheWriteTokens),
    outputTokens: total((u) => u.outputTokens),
    costUsd: generations.reduce((n, g) => n + (g.costUsd ?? Number.NaN), 0),
    startedAt: started.toISOString(),
    wallMs: Date.now() - started.getTime(),
  });
  return store.saveSample(runId, record);
}

const usd = (n: number) => `$${n.toFixed(n < 1 ? 4 : 2)}`;
const tokens = (s: StoredSample) =>
  `${s.inputTokens} input (${s.cacheReadTokens} read from cache, ${s.cacheWriteTokens} written), ${s.outputTokens} output`;
/** The stored usage priced with nothing taken from the cache. */
const uncached = (spec: string, s: StoredSample) => prices.cost(spec, { ...s, cacheReadTokens: 0, cacheWriteTokens: 0 })!;

const server = await startModelServer();
const store = ResultStore.open(':memory:');
let failed = false;
try {
  const runId = store.createRun({ bench: 'cost', turns });
  const claude = await runSample(server, store, runId, ANTHROPIC, true);
  const claudeOff = await runSample(server, store, runId, ANTHROPIC, false);
  const gpt = await runSample(server, store, runId, OPENAI, true);
  // Read back from the store, as a report would.
  const stored = (s: StoredSample) => store.getSample(runId, s.keyString)!;
  const [a, aOff, o] = [stored(claude), stored(claudeOff), stored(gpt)];

  console.log(`A ${turns}-turn SWE transcript served by the local model server, billed at list prices:\n`);
  const ratioA = a.costUsd! / aOff.costUsd!;
  console.log(`${ANTHROPIC}`);
  console.log(`  with cache breakpoints: ${usd(a.costUsd!)}  (${tokens(a)})`);
  console.log(`  without (--no-prompt-cache): ${usd(aOff.costUsd!)}  (${tokens(aOff)})`);
  console.log(`  with ÷ without: ${ratioA.toFixed(3)}  (goal ≤ ${GOAL})${ratioA <= GOAL ? '' : '  MISSED'}`);
  failed ||= !(ratioA <= GOAL);

  const byHand = ((o.inputTokens - o.cacheReadTokens) * GPT5.input + o.cacheReadTokens * GPT5.cachedInput + o.outputTokens * GPT5.output) / 1e6;
  const same = Math.abs(o.costUsd! - byHand) <= 1e-9 * byHand;
  console.log(`\n${OPENAI}`);
  console.log(`  billed: ${usd(o.costUsd!)}  (${tokens(o)})`);
  console.log(`  the same usage with cached tokens as plain input: ${usd(uncached(OPENAI, o))}`);
  console.log(`  with ÷ without: ${(o.costUsd! / uncached(OPENAI, o)).toFixed(3)}`);
  console.log(
    `  OpenAI's formula on the stored usage, (input − cached) × $${GPT5.input} + cached × $${GPT5.cachedInput} + output × $${GPT5.output} per Mtok: ` +
      `${usd(byHand)} (${byHand.toPrecision(12)} against ${o.costUsd!.toPrecision(12)} billed): ${same ? 'equal' : 'DIFFERENT'}`,
  );
  failed ||= !same;

  console.log(`\nA demo-sized sweep, ${samples} samples each costing what this transcript did:`);
  console.log(`  ${ANTHROPIC}: ${usd(a.costUsd! * samples)} with caching, ${usd(aOff.costUsd! * samples)} without`);
  console.log(`  ${OPENAI}: ${usd(o.costUsd! * samples)} with caching, ${usd(uncached(OPENAI, o) * samples)} without`);
} finally {
  store.close();
  await server.close();
}
process.exitCode = failed ? 1 : 0;
