import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { FaultConfig } from '../server/index.js';
import { REASONING_TOKENS } from '../server/responses-wire.js';
import { countInputTokens } from '../server/tokens.js';
import { useModelServer } from '../testing/model-server.js';
import { createModelClient } from '../../models/factory.js';
import { PriceTable } from '../../models/prices.js';
import { captureLogger } from '../../models/testing/logger.js';
import { BASH, CONTEXT, echoPolicy } from '../testing/echo.js';
import { ContextOverflowError, ModelApiError, type ChatMessage, type Generation } from '../../core/model.js';

// The OpenAI Responses API through the real `openai` SDK: against the local model server, and against canned answers
// of the shapes real models give.
const server = useModelServer({ seed: 3 });

const FAST_RETRY = { baseDelayMs: 10, maxDelayMs: 50, maxRetries: 3 };

const START: ChatMessage[] = [
  { role: 'system', content: 'You are a careful engineer.' },
  { role: 'user', content: 'Print hi.' },
];

/** The assistant message the agent loop appends for an answer, with its reasoning (see Session.generate). */
function answered(gen: Generation): ChatMessage {
  return { role: 'assistant', content: gen.text, toolCalls: gen.toolCalls, ...(gen.reasoning ? { reasoning: gen.reasoning } : {}) };
}

/** The conversation after the echo policy's first answer and its tool result. */
function afterFirst(first: Generation, keepReasoning = true): ChatMessage[] {
  const assistant = answered(first);
  if (!keepReasoning && assistant.role === 'assistant') delete assistant.reasoning;
  return [...START, assistant, { role: 'tool', toolCallId: first.toolCalls[0]!.id, name: 'bash', content: 'hi\n' }];
}

/** A client of `spec` on the local server, in a session of its own. */
function onServer(spec: string, extra: Parameters<typeof createModelClient>[1] = {}, faults?: FaultConfig) {
  const policy = echoPolicy();
  const token = server.openSession(policy, CONTEXT, faults ? { faults } : {});
  const client = createModelClient(spec, { baseUrl: server.openaiBaseUrl, apiKey: token, env: {}, retry: FAST_RETRY, ...extra });
  return { client, policy, token, stats: () => server.sessionStats(token)! };
}

describe('the Responses client on the local server', () => {
  it('sends store: false, encrypted reasoning, effort, max_output_tokens and the sample’s cache key; no seed, and no temperature with effort', async () => {
    const { client, stats } = onServer('openai-responses/gpt-5', { defaults: { maxTokens: 256, temperature: 0.5, seed: 3 } });
    await client.generate(START, [BASH], { reasoningEffort: 'medium', cacheKey: 'run-1/sample-7' });
    expect(stats().lastParams).toEqual({
      model: 'gpt-5',
      max_output_tokens: 256,
      reasoning: { effort: 'medium' },
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'run-1/sample-7',
    });
    // Without reasoning effort, a temperature is a model's to take.
    await client.generate(START, [BASH]);
    expect(stats().lastParams).toEqual({
      model: 'gpt-5',
      max_output_tokens: 256,
      temperature: 0.5,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
  });

  it('round-trips function calls: call_id as the tool call id, the output matched to it, the policy sees one assistant turn', async () => {
    const { client, policy } = onServer('openai-responses/gpt-5');
    const first = await client.generate(START, [BASH]);
    expect(first.text).toBe('Let me run it.');
    expect(first.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'bash', arguments: '{"command":"echo hi"}' }]);
    expect(first.stopReason).toBe('tool_calls');
    expect(first.reasoning).toEqual([
      { type: 'openai_reasoning', id: expect.stringMatching(/^rs_/), encryptedContent: expect.any(String), summary: [] },
    ]);
    const second = await client.generate(afterFirst(first), [BASH]);
    expect([second.text, second.stopReason, second.toolCalls]).toEqual(['done: bash said hi\n', 'stop', []]);
    // Instructions, input message, the turn's reasoning + message + call as one assistant message, the call's output.
    expect(policy.seen[1]).toEqual(afterFirst(first));
  });

  it('sends turn N’s reasoning back on turn N+1, and the server checks it', async () => {
    const { client, stats } = onServer('openai/gpt-5-codex');
    const first = await client.generate(START, [BASH]);
    await client.generate(afterFirst(first), [BASH]);
    expect(stats()).toMatchObject({ answered: 2, reasoningCarried: 1 });
  });

  it('fails loudly, with a 400 never retried, when a client drops the reasoning or forges it', async () => {
    const { logger, lines } = captureLogger();
    const { client, stats } = onServer('openai/gpt-5-codex', { logger });
    const first = await client.generate(START, [BASH]);
    const dropped = await client.generate(afterFirst(first, false), [BASH]).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(ModelApiError);
    expect(dropped).toMatchObject({ status: 400, attempts: 1 });
    expect((dropped as Error).message).toMatch(/leaves out its reasoning item rs_\S+: with `store` set to false/);
    const forged = afterFirst(first).map((m) =>
      m.role === 'assistant' && m.reasoning ? { ...m, reasoning: m.reasoning.map((r) => ({ ...r, encryptedContent: 'made-up' })) } : m,
    );
    await expect(client.generate(forged, [BASH])).rejects.toThrow(/encrypted content for item rs_\S+ could not be verified/);
    expect(lines.filter((l) => l.msg === 'model API call failed; retrying')).toHaveLength(0);
    // The session goes on once the reasoning comes back as it was.
    expect((await client.generate(afterFirst(first), [BASH])).text).toBe('done: bash said hi\n');
    expect(stats()).toMatchObject({ requests: 4, answered: 2, reasoningCarried: 1 });
  });

  it('counts reasoning inside the output and the cached prefix inside the input, and prices as openai/NAME', async () => {
    const { client } = onServer('openai-responses/gpt-5');
    // A system prompt past OpenAI's 1024-token caching threshold.
    const long: ChatMessage[] = [{ role: 'system', content: `You are careful. ${'Read every line. '.repeat(300)}` }, START[1]!];
    const first = await client.generate(long, [BASH]);
    expect(first.usage).toEqual({
      inputTokens: countInputTokens(long, [BASH]),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      outputTokens: expect.any(Number),
      reasoningTokens: REASONING_TOKENS,
    });
    expect(first.usage.outputTokens).toBeGreaterThan(REASONING_TOKENS);
    const assistant = answered(first);
    const second = await client.generate(
      [...long, assistant, { role: 'tool', toolCallId: first.toolCalls[0]!.id, name: 'bash', content: 'hi\n' }],
      [BASH],
    );
    // The first request's prompt is the second's prefix: read from cache, in OpenAI's 128-token steps.
    const prefix = countInputTokens(long, [BASH]);
    expect(prefix).toBeGreaterThan(1024);
    expect(second.usage.cacheReadTokens).toBe(Math.floor(prefix / 128) * 128);
    expect(second.usage.inputTokens).toBeGreaterThan(second.usage.cacheReadTokens);
    expect(second.costUsd).toBeGreaterThan(0);
    expect(second.costUsd).toBe(new PriceTable().cost('openai/gpt-5', second.usage));
  });

  it('runs Responses-only models given as openai/NAME through Responses, which Chat Completions refuses', async () => {
    const codex = onServer('openai/gpt-5.1-codex-mini');
    expect((await codex.client.generate(START, [BASH])).toolCalls).toHaveLength(1);
    expect(codex.stats().lastParams).toMatchObject({ model: 'gpt-5.1-codex-mini', store: false });
    // Any other OpenAI model stays on Chat Completions.
    const chat = onServer('openai/gpt-5');
    await chat.client.generate(START, [BASH]);
    expect(chat.stats().lastParams).toEqual({ model: 'gpt-5' });
    // Over Chat Completions a codex model is refused at once, as OpenAI documents.
    const refused = onServer('openai-compatible/gpt-5-codex');
    const err = await refused.client.generate(START, [BASH]).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ModelApiError', status: 400, attempts: 1 });
    expect((err as Error).message).toMatch(/This model is only supported in v1\/responses and not in v1\/chat\/completions\./);
  });

  it('turns the Responses overflow into ContextOverflowError, never retried', async () => {
    const { logger, lines } = captureLogger();
    const { client, stats } = onServer('openai-responses/gpt-5', { logger }, { contextWindow: 40 });
    expect(countInputTokens(START, [BASH])).toBeGreaterThan(40);
    const err = await client.generate(START, [BASH]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextOverflowError);
    expect(err).toMatchObject({ status: 400 });
    expect((err as Error).message).toMatch(/exceeds the context window/);
    expect(lines.filter((l) => l.msg === 'model API call failed; retrying')).toHaveLength(0);
    expect(stats()).toMatchObject({ requests: 1, answered: 0, faults: [{ request: 0, kind: 'context_overflow' }] });
  });

  it('streams through the raw SDK: text, a function call, reasoning and usage', async () => {
    const token = server.openSession(echoPolicy(), CONTEXT);
    const sdk = new OpenAI({ apiKey: token, baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const deltas: string[] = [];
    const stream = sdk.responses.stream({
      model: 'gpt-5-codex',
      input: 'Print hi.',
      tools: [{ type: 'function', name: 'bash', parameters: BASH.parameters, strict: false }],
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
    const final = await stream.finalResponse();
    expect(deltas.join('')).toBe('Let me run it.');
    expect(final.output_text).toBe('Let me run it.');
    expect(final.output.map((o) => o.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(final.output.find((o) => o.type === 'function_call')).toMatchObject({ name: 'bash', arguments: '{"command":"echo hi"}' });
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBe(REASONING_TOKENS);
  });
});

/** A server answering each request with the next canned body (200, or the status given), recording the requests. */
async function canned(bodies: (object | { status: number; body: object })[]) {
  const requests: Record<string, unknown>[] = [];
  const http = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      requests.push(JSON.parse(raw) as Record<string, unknown>);
      const next = bodies.shift() ?? {};
      const [status, body]: [number, object] = 'status' in next && 'body' in next ? [next.status as number, next.body as object] : [200, next];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`;
  return { baseUrl, requests, close: () => new Promise((resolve) => http.close(resolve)) };
}

const response = (output: object[], extra: object = {}) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 0,
  status: 'completed',
  model: 'gpt-5',
  output,
  usage: {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 64 },
    output_tokens: 50,
    output_tokens_details: { reasoning_tokens: 30 },
    total_tokens: 150,
  },
  ...extra,
});

describe('the Responses client on answers real models give', () => {
  it('reads a refusal, keeps a call cut at max_output_tokens as raw text, and retries a failed response', async () => {
    const server = await canned([
      response([
        { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I can’t help with that.' }] },
      ]),
      response(
        [
          { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan the edit.' }], encrypted_content: 'opaque' },
          { type: 'reasoning', id: 'rs_2', summary: [] },
          { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'bash', arguments: '{"command": "pyt', status: 'incomplete' },
        ],
        { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      ),
      response([], { status: 'failed', error: { code: 'server_error', message: 'The model failed.' } }),
      response(
        [{ type: 'message', id: 'msg_2', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }],
        {
          usage: undefined,
        },
      ),
    ]);
    try {
      const client = createModelClient('openai-responses/gpt-5', { baseUrl: server.baseUrl, apiKey: 'k', env: {}, retry: FAST_RETRY });
      const refusal = await client.generate(START, [BASH]);
      expect(refusal).toMatchObject({ text: 'I can’t help with that.', toolCalls: [], refusal: true, stopReason: 'stop' });
      expect(refusal.usage).toEqual({ inputTokens: 100, cacheReadTokens: 64, cacheWriteTokens: 0, outputTokens: 50, reasoningTokens: 30 });

      const cut = await client.generate(START, [BASH]);
      expect(cut.stopReason).toBe('length');
      expect(cut.toolCalls).toEqual([{ id: 'call_1', name: 'bash', arguments: '{"command": "pyt' }]);
      // Only reasoning with its encrypted content can go back under store: false.
      expect(cut.reasoning).toEqual([{ type: 'openai_reasoning', id: 'rs_1', encryptedContent: 'opaque', summary: ['Plan the edit.'] }]);

      // The cut call goes back verbatim with the loop's error result, after its reasoning.
      await client.generate(
        [...START, answered(cut), { role: 'tool', toolCallId: 'call_1', name: 'bash', content: 'Error: the arguments are not valid JSON' }],
        [BASH],
      );
      const last = server.requests.at(-1)!;
      expect(last.instructions).toBe('You are a careful engineer.');
      expect(last.input).toEqual([
        { type: 'message', role: 'user', content: 'Print hi.' },
        { type: 'reasoning', id: 'rs_1', encrypted_content: 'opaque', summary: [{ type: 'summary_text', text: 'Plan the edit.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'bash', arguments: '{"command": "pyt' },
        { type: 'function_call_output', call_id: 'call_1', output: 'Error: the arguments are not valid JSON' },
      ]);
      expect(last.tools).toEqual([{ type: 'function', name: 'bash', description: BASH.description, parameters: BASH.parameters, strict: false }]);
      // That third request failed once (status failed) and was answered on the retry, without usage: cost unknown.
      expect(server.requests).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  it('stops asking a model that does not reason for encrypted reasoning', async () => {
    const text = response([
      { type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hi', annotations: [] }] },
    ]);
    const refusal = {
      error: { message: 'Encrypted content is not supported with this model.', type: 'invalid_request_error', param: 'include', code: null },
    };
    const server = await canned([{ status: 400, body: refusal }, text, text]);
    try {
      const { logger, lines } = captureLogger();
      const client = createModelClient('openai-responses/gpt-4.1', { baseUrl: server.baseUrl, apiKey: 'k', env: {}, logger, retry: FAST_RETRY });
      expect((await client.generate(START, [])).text).toBe('hi');
      // Clients are made per sample: the next sample's does not ask again.
      const next = createModelClient('openai-responses/gpt-4.1', { baseUrl: server.baseUrl, apiKey: 'k', env: {}, retry: FAST_RETRY });
      expect((await next.generate(START, [])).text).toBe('hi');
      expect(server.requests.map((r) => r.include)).toEqual([['reasoning.encrypted_content'], undefined, undefined]);
      expect(lines.filter((l) => l.msg === 'model API call failed; retrying')).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('answers without usage cost nothing known, not zero', async () => {
    const server = await canned([
      response(
        [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hi', annotations: [] }] }],
        {
          usage: undefined,
        },
      ),
    ]);
    try {
      const gen = await createModelClient('openai-responses/gpt-5', { baseUrl: server.baseUrl, apiKey: 'k', env: {} }).generate(START, []);
      expect([gen.text, gen.costUsd, gen.stopReason]).toEqual(['hi', null, 'stop']);
    } finally {
      await server.close();
    }
  });
});
