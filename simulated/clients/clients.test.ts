import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { REASONING_TOKENS } from '../server/responses-wire.js';
import { countInputTokens } from '../server/tokens.js';
import { useModelServer, withModelServer } from '../testing/model-server.js';
import { createModelClient, type ModelClientOptions } from '../../models/factory.js';
import { captureLogger } from '../../models/testing/logger.js';
import { BASH, CONTEXT, echoPolicy } from '../testing/echo.js';
import { ModelApiError, type ChatMessage, type Generation } from '../../core/model.js';

// Everything below goes through the real OpenAI and Anthropic SDKs to the local model server (OpenAI's over both its
// APIs: Chat Completions and Responses).
const server = useModelServer({ seed: 7 });

const FAST_RETRY = { baseDelayMs: 10, maxDelayMs: 50, maxRetries: 3 };

function scripted(wire: 'openai' | 'anthropic' | 'responses', extra: Partial<ModelClientOptions> = {}) {
  const policy = echoPolicy();
  const client = createModelClient('scripted/echo', { server, context: CONTEXT, wire, policy, retry: FAST_RETRY, ...extra });
  return { client, policy };
}

const START: ChatMessage[] = [
  { role: 'system', content: 'You are a careful engineer.' },
  { role: 'user', content: 'Print hi.' },
];

/** The assistant message a loop appends for an answer: its reasoning goes back with it (Responses requires it). */
const answered = (gen: Generation): ChatMessage => ({
  role: 'assistant',
  content: gen.text,
  toolCalls: gen.toolCalls,
  ...(gen.reasoning ? { reasoning: gen.reasoning } : {}),
});

describe.each(['openai', 'anthropic', 'responses'] as const)('scripted model over the %s wire format', (wire) => {
  it('round-trips tool calls: assistant call, tool result, next turn', async () => {
    const { client, policy } = scripted(wire);
    const first = await client.generate(START, [BASH]);
    expect(first.text).toBe('Let me run it.');
    expect(first.toolCalls).toHaveLength(1);
    const call = first.toolCalls[0]!;
    expect(call.name).toBe('bash');
    expect(JSON.parse(call.arguments)).toEqual({ command: 'echo hi' });
    expect(call.id).not.toBe('');
    expect(first.stopReason).toBe(wire === 'anthropic' ? 'tool_use' : 'tool_calls');

    const next: ChatMessage[] = [...START, answered(first), { role: 'tool', toolCallId: call.id, name: 'bash', content: 'hi\n' }];
    const second = await client.generate(next, [BASH]);
    expect(second.text).toBe('done: bash said hi\n');
    expect(second.toolCalls).toEqual([]);
    expect(second.stopReason).toBe(wire === 'anthropic' ? 'end_turn' : 'stop');
    // The policy saw the conversation as sent: system, user, the call, and the result matched to it by id.
    expect(policy.seen[1]).toEqual(next);
    await client.close?.();
  });

  it('counts usage from the server and costs nothing', async () => {
    const { client } = scripted(wire);
    const gen = await client.generate(START, [BASH]);
    expect(gen.usage.inputTokens).toBe(countInputTokens(START, [BASH]));
    expect(gen.usage.outputTokens).toBeGreaterThan(0);
    // The Responses route thinks a little before every answer.
    expect(gen.usage.reasoningTokens).toBe(wire === 'responses' ? REASONING_TOKENS : 0);
    expect(gen.costUsd).toBe(0);
    expect(gen.latencyMs).toBeGreaterThan(0);
  });

  it('waits out a 429 for its Retry-After, logs the retry, then answers', async () => {
    const { logger, lines } = captureLogger();
    const { client } = scripted(wire, { logger, session: { faults: { sequence: ['rate_limit'], retryAfterSeconds: 1 } } });
    const started = performance.now();
    const gen = await client.generate(START, [BASH]);
    const waited = performance.now() - started;
    expect(gen.toolCalls).toHaveLength(1);
    // The backoff alone would be under 50 ms: the second of waiting is the server's Retry-After.
    expect(waited).toBeGreaterThanOrEqual(995);
    const retries = lines.filter((l) => l.msg === 'model API call failed; retrying');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ status: 429, retryAfterMs: 1000, attempt: 1, model: 'scripted/echo' });
  });

  it('retries a 500 and then answers', async () => {
    const { client } = scripted(wire, { session: { key: `five-hundred-${wire}`, faults: { sequence: ['server_error'] } } });
    const gen = await client.generate(START, [BASH]);
    expect(gen.toolCalls).toHaveLength(1);
  });

  it('gives ModelApiError once the retries are exhausted', async () => {
    const { logger, lines } = captureLogger();
    const { client } = scripted(wire, {
      logger,
      retry: { ...FAST_RETRY, maxRetries: 2 },
      session: { faults: { serverError: 1 } },
    });
    const err = await client.generate(START, [BASH]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelApiError);
    expect(err).toMatchObject({ status: 500, attempts: 3 });
    expect((err as Error).message).toMatch(/gave up after 3 attempts/);
    expect(lines.filter((l) => l.msg === 'model API call failed; retrying')).toHaveLength(2);
  });

  it('fails a 400 at once, without retrying', async () => {
    const { logger, lines } = captureLogger();
    const { client } = scripted(wire, { logger });
    // An empty conversation is a bad request on both wires.
    const err = await client.generate([], [BASH]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelApiError);
    expect(err).toMatchObject({ status: 400, attempts: 1 });
    expect(lines.filter((l) => l.msg === 'model API call failed; retrying')).toHaveLength(0);
  });

  it('hands malformed tool-call JSON to the caller as raw text, and the conversation goes on', async () => {
    const { client } = scripted(wire, { session: { faults: { sequence: ['malformed_tool_call'] } } });
    const first = await client.generate(START, [BASH]);
    const call = first.toolCalls[0]!;
    expect(call.arguments).toBe('{"command":"echo hi"');
    expect(() => JSON.parse(call.arguments) as unknown).toThrow();
    // The agent loop answers a bad call with feedback; the bad call itself goes back in the history.
    const next: ChatMessage[] = [
      ...START,
      answered(first),
      { role: 'tool', toolCallId: call.id, name: 'bash', content: 'error: the arguments are not valid JSON' },
    ];
    const second = await client.generate(next, [BASH]);
    expect(second.text).toBe('done: bash said error: the arguments are not valid JSON');
  });

  it('retries an answer slower than the request timeout', async () => {
    const { client } = scripted(wire, { timeoutMs: 1_000, session: { faults: { sequence: ['slow'], slowMs: 20_000 } } });
    const gen = await client.generate(START, [BASH]);
    expect(gen.toolCalls).toHaveLength(1);
  });

  it('closes its session: the token stops working', async () => {
    const { client } = scripted(wire, { retry: { maxRetries: 0 } });
    await client.generate(START, [BASH]);
    await client.close?.();
    await expect(client.generate(START, [BASH])).rejects.toMatchObject({ name: 'ModelApiError', status: 401, attempts: 1 });
  });
});

describe('provider clients and their options on the wire', () => {
  it('send temperature, seed, max tokens and reasoning effort as Chat Completions fields', async () => {
    const token = server.openSession(echoPolicy(), CONTEXT);
    const client = createModelClient('openai-compatible/m', {
      baseUrl: server.openaiBaseUrl,
      apiKey: token,
      defaults: { temperature: 0.2, seed: 3, maxTokens: 100 },
    });
    await client.generate(START, [BASH], { reasoningEffort: 'low', seed: 9 });
    expect(server.sessionStats(token)?.lastParams).toEqual({
      model: 'm',
      temperature: 0.2,
      seed: 9,
      max_tokens: 100,
      reasoning_effort: 'low',
    });
  });

  it('send OpenAI models max_completion_tokens, and price known models', async () => {
    // `openai/NAME` with a base URL is how a proxy in front of OpenAI is reached; here it is the local server.
    const token = server.openSession(echoPolicy(), CONTEXT);
    const client = createModelClient('openai/gpt-4o-2024-08-06', {
      baseUrl: server.openaiBaseUrl,
      env: { OPENAI_API_KEY: token },
      defaults: { maxTokens: 64 },
    });
    const gen = await client.generate(START, [BASH]);
    expect(server.sessionStats(token)?.lastParams).toEqual({ model: 'gpt-4o-2024-08-06', max_completion_tokens: 64 });
    expect(gen.costUsd).toBeCloseTo((gen.usage.inputTokens * 2.5 + gen.usage.outputTokens * 10) / 1e6, 12);
    expect(gen.costUsd).toBeGreaterThan(0);
  });

  it('send a thinking budget as Messages thinking, with room for the answer and no temperature', async () => {
    const token = server.openSession(echoPolicy(), CONTEXT);
    const client = createModelClient('anthropic/claude-sonnet-4', {
      baseUrl: server.anthropicBaseUrl,
      env: { ANTHROPIC_API_KEY: token },
      defaults: { thinkingBudget: 2048 },
    });
    const gen = await client.generate(START, [BASH], { temperature: 0.5 });
    expect(server.sessionStats(token)?.lastParams).toEqual({
      model: 'claude-sonnet-4',
      max_tokens: 2048 + 8192,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
    expect(gen.costUsd).toBeCloseTo((gen.usage.inputTokens * 3 + gen.usage.outputTokens * 15) / 1e6, 12);
  });

  it("log the SDK's per-call model notices once, instead of printing them on every call", async () => {
    const token = server.openSession(echoPolicy(), CONTEXT);
    const { logger, lines } = captureLogger();
    const printed: unknown[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => printed.push(args);
    try {
      // The SDK marks this model deprecated.
      const client = createModelClient('anthropic/claude-sonnet-4-5', { baseUrl: server.anthropicBaseUrl, apiKey: token, logger });
      await client.generate(START, [BASH]);
      await client.generate(START, [BASH]);
    } finally {
      console.warn = original;
    }
    expect(printed).toEqual([]);
    const notices = lines.filter((l) => l.msg === 'notice from the Anthropic SDK');
    expect(notices).toHaveLength(1);
    expect(String(notices[0]?.notice)).toMatch(/deprecated/);
  });

  it('send temperature and effort to Messages when there is no thinking', async () => {
    const token = server.openSession(echoPolicy(), CONTEXT);
    const client = createModelClient('anthropic/claude-haiku-4-5', { baseUrl: server.anthropicBaseUrl, apiKey: token, env: {} });
    await client.generate(START, [BASH], { temperature: 0, maxTokens: 500, reasoningEffort: 'minimal' });
    expect(server.sessionStats(token)?.lastParams).toEqual({
      model: 'claude-haiku-4-5',
      max_tokens: 500,
      temperature: 0,
      output_config: { effort: 'low' },
    });
  });

  it('send the thinking budget alone when both it and an effort are set, as the paper presets do', async () => {
    const token = server.openSession(echoPolicy(), CONTEXT);
    const client = createModelClient('anthropic/claude-sonnet-4-5', { baseUrl: server.anthropicBaseUrl, apiKey: token, env: {} });
    await client.generate(START, [BASH], { thinkingBudget: 4096, reasoningEffort: 'medium' });
    expect(server.sessionStats(token)?.lastParams).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096 + 8192,
      thinking: { type: 'enabled', budget_tokens: 4096 },
    });
  });
});

describe('openai-compatible models', () => {
  it('talk Chat Completions to the given base URL with the given key', async () => {
    const policy = echoPolicy();
    const token = server.openSession(policy, CONTEXT);
    const client = createModelClient('openai-compatible/Qwen/Qwen3-8B', { baseUrl: server.openaiBaseUrl, apiKey: token, env: {} });
    expect(client.name).toBe('openai-compatible/Qwen/Qwen3-8B');
    const gen = await client.generate(START, [BASH], { temperature: 0, seed: 1, maxTokens: 256 });
    expect(gen.toolCalls[0]?.name).toBe('bash');
    expect(gen.usage.inputTokens).toBeGreaterThan(0);
    // Nobody's price list knows a self-hosted model: unknown, not free.
    expect(gen.costUsd).toBeNull();
    server.closeSession(token);
  });

  it('are priced from the file IMPOSSIBLEBENCH_PRICES names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prices-'));
    const file = join(dir, 'prices.json');
    writeFileSync(file, JSON.stringify({ 'openai-compatible/priced': { input: 1, output: 2 } }));
    const token = server.openSession(echoPolicy(), CONTEXT);
    const client = createModelClient('openai-compatible/priced', {
      baseUrl: server.openaiBaseUrl,
      apiKey: token,
      env: { IMPOSSIBLEBENCH_PRICES: file },
    });
    const gen = await client.generate(START, [BASH]);
    expect(gen.costUsd).toBeCloseTo((gen.usage.inputTokens * 1 + gen.usage.outputTokens * 2) / 1e6, 12);
    writeFileSync(join(dir, 'bad.json'), '{"openai-compatible/priced": {"input": "free"}}');
    expect(() =>
      createModelClient('openai-compatible/priced', { baseUrl: server.openaiBaseUrl, env: { IMPOSSIBLEBENCH_PRICES: join(dir, 'bad.json') } }),
    ).toThrow(/bad\.json: "openai-compatible\/priced"\.input/);
  });

  it('send no Authorization header without a key, and never the OpenAI key', async () => {
    const seen: (string | undefined)[] = [];
    const bare = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"who are you"}}');
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/v1`;
    try {
      const keyless = createModelClient('openai-compatible/local', { baseUrl, env: { OPENAI_API_KEY: 'sk-must-not-leak' } });
      await expect(keyless.generate(START, [])).rejects.toMatchObject({ name: 'ModelApiError', status: 401 });
      const keyed = createModelClient('openai-compatible/local', { baseUrl, env: { OPENAI_COMPATIBLE_API_KEY: 'sk-local' } });
      await expect(keyed.generate(START, [])).rejects.toMatchObject({ status: 401 });
      expect(seen).toEqual([undefined, 'Bearer sk-local']);
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('accept what lax servers send: calls without ids, object arguments, no usage, and retry empty answers', async () => {
    const answers = [
      { id: 'x', choices: [] },
      {
        id: 'x',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: '', type: 'function', function: { name: 'bash', arguments: { command: 'ls' } } }],
            },
          },
        ],
      },
    ];
    const lax = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers.shift() ?? { id: 'x', choices: [] }));
    });
    await new Promise<void>((resolve) => lax.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(lax.address() as AddressInfo).port}/v1`;
    try {
      const client = createModelClient('openai-compatible/lax', { baseUrl, retry: FAST_RETRY });
      const gen = await client.generate(START, [BASH]);
      expect(gen.toolCalls).toEqual([{ id: 'call_x_0', name: 'bash', arguments: '{"command":"ls"}' }]);
      expect(gen.text).toBe('');
      // No usage reported: the tokens read zero but the cost is unknown, not free.
      expect(gen.costUsd).toBeNull();
      // A server that keeps answering with nothing ends in ModelApiError like any other failure.
      const err = await client.generate(START, [BASH]).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'ModelApiError', attempts: FAST_RETRY.maxRetries + 1 });
    } finally {
      await new Promise((resolve) => lax.close(resolve));
    }
  });

  it('retry a server that is not there, then say why', async () => {
    const probe = createNetServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const { logger, lines } = captureLogger();
    const client = createModelClient('openai-compatible/gone', {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      logger,
      retry: { ...FAST_RETRY, maxRetries: 2 },
    });
    const err = await client.generate(START, []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelApiError);
    expect(err).toMatchObject({ status: undefined, attempts: 3 });
    expect((err as Error).message).toMatch(/^openai-compatible\/gone: Connection error \(ECONNREFUSED\); gave up after 3 attempts$/);
    expect(lines.filter((l) => l.msg === 'model API call failed; retrying')).toHaveLength(2);
  });

  it('send no key when none is given (and this server, wanting one, refuses at once)', async () => {
    const client = createModelClient('openai-compatible/local', {
      baseUrl: server.openaiBaseUrl,
      env: { OPENAI_API_KEY: 'sk-must-not-leak' },
      retry: FAST_RETRY,
    });
    await expect(client.generate(START, [])).rejects.toMatchObject({ name: 'ModelApiError', status: 401, attempts: 1 });
  });

  it('share one concurrency limit per server across clients', async () => {
    // A server of its own, so that no other test's traffic shows in its in-flight count.
    await withModelServer(async (own) => {
      const tokens = [0, 1, 2].map(() => own.openSession(echoPolicy(), CONTEXT, { faults: { slow: 1, slowMs: 150 } }));
      const clients = tokens.map((apiKey) => createModelClient('openai-compatible/limited', { baseUrl: own.openaiBaseUrl, apiKey, concurrency: 1 }));
      const gens = await Promise.all(clients.map((c) => c.generate(START, [BASH])));
      expect(gens.every((g) => g.toolCalls.length === 1)).toBe(true);
      expect(own.stats()).toMatchObject({ requests: 3, maxInFlight: 1 });
    });
  });

  it('let requests overlap up to the limit', async () => {
    await withModelServer(async (own) => {
      const tokens = [0, 1, 2].map(() => own.openSession(echoPolicy(), CONTEXT, { faults: { slow: 1, slowMs: 1_500 } }));
      const clients = tokens.map((apiKey) =>
        createModelClient('openai-compatible/unlimited', { baseUrl: own.openaiBaseUrl, apiKey, concurrency: 3 }),
      );
      await Promise.all(clients.map((c) => c.generate(START, [BASH])));
      expect(own.stats()).toMatchObject({ requests: 3, maxInFlight: 3 });
    });
  });
});

describe('the raw SDKs against the server', () => {
  it('stream Chat Completions with tool calls and usage', async () => {
    const token = server.openSession(echoPolicy(), CONTEXT);
    const sdk = new OpenAI({ apiKey: token, baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const stream = await sdk.chat.completions.create({
      model: 'scripted/echo',
      messages: [{ role: 'user', content: 'Print hi.' }],
      tools: [{ type: 'function', function: { name: 'bash', parameters: BASH.parameters } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let args = '';
    let name = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      text += delta?.content ?? '';
      for (const c of delta?.tool_calls ?? []) {
        name += c.function?.name ?? '';
        args += c.function?.arguments ?? '';
      }
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Let me run it.');
    expect(name).toBe('bash');
    expect(JSON.parse(args)).toEqual({ command: 'echo hi' });
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
  });

  it('stream Messages with tool use', async () => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const token = server.openSession(echoPolicy(), CONTEXT);
    const sdk = new Anthropic({ apiKey: token, baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    const message = await sdk.messages
      .stream({
        model: 'scripted/echo',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Print hi.' }],
        tools: [{ name: 'bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
      })
      .finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    const use = message.content.find((b) => b.type === 'tool_use');
    expect(use).toMatchObject({ name: 'bash', input: { command: 'echo hi' } });
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });
});
