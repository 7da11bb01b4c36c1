import { describe, expect, it } from 'vitest';
import { useModelServer } from '../testing/model-server.js';
import { createModelClient, type ModelClientOptions } from '../../models/factory.js';
import { isContextOverflow } from '../../models/overflow.js';
import { captureLogger } from '../../models/testing/logger.js';
import { BASH, CONTEXT, echoPolicy } from '../testing/echo.js';
import { ContextOverflowError, type ChatMessage, type ToolSpec } from '../../core/model.js';

// The answers real providers give that scripted policies never do, served in each wire format the providers document,
// through the real OpenAI and Anthropic SDKs.
const server = useModelServer({ seed: 11 });

const FAST_RETRY = { baseDelayMs: 10, maxDelayMs: 50, maxRetries: 3 };
const THINK: ToolSpec = { name: 'think', description: 'Think.', parameters: { type: 'object', properties: { thought: { type: 'string' } } } };
const START: ChatMessage[] = [
  { role: 'system', content: 'You are a careful engineer.' },
  { role: 'user', content: 'Print hi.' },
];

function scripted(wire: 'openai' | 'anthropic' | 'responses', extra: Partial<ModelClientOptions> = {}) {
  const policy = echoPolicy();
  const client = createModelClient('scripted/echo', { server, context: CONTEXT, wire, policy, retry: FAST_RETRY, ...extra });
  return { client, policy };
}

const retries = (lines: Record<string, unknown>[]) => lines.filter((l) => l.msg === 'model API call failed; retrying');

describe.each(['openai', 'responses', 'anthropic'] as const)('provider answers over the %s wire', (wire) => {
  const openai = wire !== 'anthropic';
  it('an overflow is a ContextOverflowError at the first try, never retried', async () => {
    const { logger, lines } = captureLogger();
    const { client, policy } = scripted(wire, { logger, session: { key: `overflow-${wire}`, faults: { overflowAfter: 1 } } });
    await client.generate(START, [BASH]);
    const err = await client.generate(START, [BASH]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextOverflowError);
    expect((err as Error).message).toMatch(
      { openai: /maximum context length/, responses: /exceeds the context window/, anthropic: /prompt is too long/ }[wire],
    );
    expect(retries(lines)).toHaveLength(0);
    // The policy answered the first request only.
    expect(policy.seen).toHaveLength(1);
  });

  it('a context window given in tokens overflows the request that passes it', async () => {
    const { client } = scripted(wire, { session: { faults: { contextWindow: 5 } } });
    await expect(client.generate(START, [BASH])).rejects.toBeInstanceOf(ContextOverflowError);
  });

  it('an overloaded provider is waited out like any outage', async () => {
    const { logger, lines } = captureLogger();
    const { client } = scripted(wire, { logger, session: { faults: { sequence: ['overloaded'] } } });
    const gen = await client.generate(START, [BASH]);
    expect(gen.toolCalls).toHaveLength(1);
    expect(retries(lines)).toHaveLength(1);
    expect(retries(lines)[0]).toMatchObject({ status: openai ? 503 : 529 });
  });

  it('a refusal arrives as the model answer it is, flagged', async () => {
    const { client } = scripted(wire, { session: { faults: { sequence: ['refusal'] } } });
    const gen = await client.generate(START, [BASH]);
    expect(gen.refusal).toBe(true);
    expect(gen.toolCalls).toEqual([]);
    expect(gen.stopReason).toBe(openai ? 'stop' : 'refusal');
    if (openai) expect(gen.text).toMatch(/can't help/);
  });

  it('an answer cut at max_tokens inside a tool call keeps the cut call', async () => {
    const { client } = scripted(wire, { session: { faults: { sequence: ['cut_tool_call'] } } });
    const gen = await client.generate(START, [BASH]);
    expect(gen.stopReason).toBe(openai ? 'length' : 'max_tokens');
    expect(gen.toolCalls).toHaveLength(1);
    // OpenAI sends the JSON as far as it got; Anthropic a tool_use with no input yet.
    const args = gen.toolCalls[0]!.arguments;
    if (openai) {
      expect('{"command":"echo hi"}'.startsWith(args) && args.length > 0).toBe(true);
      expect(() => JSON.parse(args) as unknown).toThrow();
    } else expect(args).toBe('{}');
  });

  it('parallel calls come in one answer', async () => {
    const { client } = scripted(wire, { session: { faults: { sequence: ['parallel_calls'] } } });
    const gen = await client.generate(START, [THINK, BASH]);
    expect(gen.toolCalls.map((c) => c.name)).toEqual(['think', 'bash']);
    expect(new Set(gen.toolCalls.map((c) => c.id)).size).toBe(2);
  });
});

describe('Anthropic ends an answer at the full context window', () => {
  it('is a completed answer flagged as context-exhausted', async () => {
    const { client } = scripted('anthropic', { session: { faults: { overflowAfter: 0, overflowAs: 'stop_reason' } } });
    const gen = await client.generate(START, [BASH]);
    expect(gen.stopReason).toBe('model_context_window_exceeded');
    expect(gen.contextExhausted).toBe(true);
  });
});

describe('isContextOverflow', () => {
  it.each([
    ['OpenAI', 400, ['context_length_exceeded'], "This model's maximum context length is 128000 tokens."],
    ['Anthropic', 400, ['invalid_request_error'], 'prompt is too long: 208310 tokens > 200000 maximum'],
    ['Anthropic, with max_tokens', 400, [], 'input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000'],
    ['vLLM', 400, ['BadRequestError'], "This model's maximum context length is 32768 tokens. However, you requested 33000 tokens"],
    ['llama.cpp', 400, ['exceed_context_size_error'], 'the request exceeds the available context size, try increasing it'],
    ['LiteLLM', 400, [], 'litellm.ContextWindowExceededError: litellm.BadRequestError: ...'],
    ['Ollama', 400, [], 'input length exceeds the context length'],
    ['TGI', 422, [], 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096'],
  ])('knows %s', (_who, status, kinds, message) => {
    expect(isContextOverflow(status, kinds, message)).toBe(true);
  });

  it('takes no other failure for one', () => {
    expect(isContextOverflow(400, ['invalid_request_error'], 'messages: must not be empty')).toBe(false);
    expect(isContextOverflow(500, [], "This model's maximum context length is 128000 tokens.")).toBe(false);
    expect(isContextOverflow(429, ['rate_limit_exceeded'], 'Rate limit reached')).toBe(false);
    expect(isContextOverflow(413, ['request_too_large'], 'Request exceeds the maximum allowed number of bytes')).toBe(false);
  });
});
