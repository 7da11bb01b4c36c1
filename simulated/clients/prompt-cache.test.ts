import { describe, expect, it } from 'vitest';
import { runSweTranscript, sweTranscriptPolicy } from '../testing/swe-transcript.js';
import { useModelServer } from '../testing/model-server.js';
import { withCacheBreakpoints } from '../../models/anthropic-client.js';
import { createModelClient, type ModelClientOptions } from '../../models/factory.js';
import { promptCacheKey } from '../../models/openai-client.js';
import { PriceTable } from '../../models/prices.js';
import { BASH, CONTEXT, echoPolicy } from '../testing/echo.js';
import type { Policy } from '../policy.js';
import type { ChatMessage, Generation } from '../../core/model.js';

// Real model specs through the real SDKs, pointed at the local model server: what each client sends for the prompt
// cache, and what it bills for the cache usage the server reports.
const server = useModelServer({ seed: 3 });

const FAST_RETRY = { baseDelayMs: 10, maxDelayMs: 50, maxRetries: 1 };
const LONG: ChatMessage[] = [
  { role: 'system', content: 'You are a careful engineer. '.repeat(200) },
  { role: 'user', content: 'Print hi.' },
];

/** A client for a real model spec whose requests go to a session of the local server. */
function served(spec: string, extra: Partial<ModelClientOptions> = {}, policy: Policy = echoPolicy()) {
  const token = server.openSession(policy, CONTEXT);
  const anthropic = spec.startsWith('anthropic/');
  const client = createModelClient(spec, {
    baseUrl: anthropic ? server.anthropicBaseUrl : server.openaiBaseUrl,
    apiKey: token,
    retry: FAST_RETRY,
    ...extra,
  });
  return { client, stats: () => server.sessionStats(token)! };
}

/** Two turns of the echo policy: the second resends the first. */
async function twoTurns(client: ReturnType<typeof served>['client'], cacheKey = 'run-1/sample-1'): Promise<Generation[]> {
  const first = await client.generate(LONG, [BASH], { cacheKey });
  const call = first.toolCalls[0]!;
  const next: ChatMessage[] = [
    ...LONG,
    { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
    { role: 'tool', toolCallId: call.id, name: 'bash', content: 'hi\n' },
  ];
  return [first, await client.generate(next, [BASH], { cacheKey })];
}

const sum = (gens: Generation[], f: (g: Generation) => number) => gens.reduce((n, g) => n + f(g), 0);

describe('Anthropic prompt caching', () => {
  it('marks the system prompt and the newest turn, reads the previous prefix and bills the cache prices', async () => {
    const { client, stats } = served('anthropic/claude-sonnet-4-5');
    const [first, second] = await twoTurns(client);
    // After the system prompt (1 message) and after the newest turn (system, user, assistant, tool).
    expect(stats().lastCacheBreakpoints).toEqual([1, 4]);
    expect(first!.usage.cacheReadTokens).toBe(0);
    expect(first!.usage.cacheWriteTokens).toBe(first!.usage.inputTokens);
    expect(second!.usage.cacheReadTokens).toBe(first!.usage.inputTokens);
    expect(second!.usage.cacheWriteTokens).toBe(second!.usage.inputTokens - first!.usage.inputTokens);
    const u = second!.usage;
    const plain = u.inputTokens - u.cacheReadTokens - u.cacheWriteTokens;
    expect(second!.costUsd).toBeCloseTo((plain * 3 + u.cacheReadTokens * 0.3 + u.cacheWriteTokens * 3.75 + u.outputTokens * 15) / 1e6, 12);
  });

  it('sends no breakpoint and caches nothing with promptCache off', async () => {
    const { client, stats } = served('anthropic/claude-sonnet-4-5', { promptCache: false });
    const gens = await twoTurns(client);
    expect(stats().lastCacheBreakpoints).toEqual([]);
    expect(sum(gens, (g) => g.usage.cacheReadTokens + g.usage.cacheWriteTokens)).toBe(0);
  });

  it('puts the mark on the last block that can hold one, never on thinking', () => {
    const { system, messages } = withCacheBreakpoints('Be careful.', [
      { role: 'user', content: [{ type: 'text', text: 'Fix it.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'thinking', thinking: 'hm', signature: 'sig' },
        ],
      },
    ]);
    expect(system).toEqual([{ type: 'text', text: 'Be careful.', cache_control: { type: 'ephemeral' } }]);
    expect(messages[0]!.content).toEqual([{ type: 'text', text: 'Fix it.' }]);
    expect(messages[1]!.content).toEqual([
      { type: 'text', text: 'Looking.', cache_control: { type: 'ephemeral' } },
      { type: 'thinking', thinking: 'hm', signature: 'sig' },
    ]);
  });

  it('costs at most 0.35 of the uncached price over a 30-turn SWE transcript', async () => {
    const cost = async (promptCache: boolean) => {
      const { client } = served('anthropic/claude-sonnet-4-5', { promptCache }, sweTranscriptPolicy(30));
      return sum(await runSweTranscript(client, 30), (g) => g.costUsd!);
    };
    const ratio = (await cost(true)) / (await cost(false));
    expect(ratio).toBeGreaterThan(0);
    expect(ratio).toBeLessThanOrEqual(0.35);
  });
});

describe('OpenAI prompt caching', () => {
  it('sends the sample as prompt_cache_key and bills cached input at the cached rate', async () => {
    const { client, stats } = served('openai/gpt-5');
    const [first, second] = await twoTurns(client);
    expect(stats().lastParams?.prompt_cache_key).toBe('run-1/sample-1');
    expect(first!.usage.cacheReadTokens).toBe(0);
    expect(second!.usage.cacheReadTokens).toBe(Math.floor(first!.usage.inputTokens / 128) * 128);
    const u = second!.usage;
    expect(second!.costUsd).toBeCloseTo(((u.inputTokens - u.cacheReadTokens) * 1.25 + u.cacheReadTokens * 0.125 + u.outputTokens * 10) / 1e6, 12);
  });

  it('sends a key over 64 characters as a digest, the same one every turn', async () => {
    const long = `${'r'.repeat(40)}/${'s'.repeat(40)}`;
    const { client, stats } = served('openai/gpt-5');
    await twoTurns(client, long);
    const sent = stats().lastParams?.prompt_cache_key as string;
    expect(sent.length).toBeLessThanOrEqual(64);
    expect(sent).toBe(promptCacheKey(long));
    expect(promptCacheKey(long)).not.toBe(promptCacheKey(`${long}x`));
  });

  it('sends no prompt_cache_key to an openai-compatible server, nor with promptCache off', async () => {
    const prices = new PriceTable().with({ 'openai-compatible/qwen': { input: 1, output: 2 } });
    const compatible = served('openai-compatible/qwen', { prices });
    await twoTurns(compatible.client);
    expect(compatible.stats().lastParams).not.toHaveProperty('prompt_cache_key');
    const off = served('openai/gpt-5', { promptCache: false });
    await twoTurns(off.client);
    expect(off.stats().lastParams).not.toHaveProperty('prompt_cache_key');
  });
});

describe.each(['openai', 'anthropic'] as const)('a scripted model over the %s wire', (wire) => {
  it('asks for the cache as the real client does', async () => {
    const policy = echoPolicy();
    const client = createModelClient('scripted/echo', { server, context: CONTEXT, wire, policy, retry: FAST_RETRY });
    const [, second] = await twoTurns(client);
    expect(second!.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(second!.costUsd).toBe(0);
    await client.close?.();
  });
});
