import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { PriceTable } from '../../models/prices.js';
import { BASH, CONTEXT, echoPolicy } from '../testing/echo.js';
import { useModelServer } from '../testing/model-server.js';
import { RecordingProxy, type RecordingProxyOptions } from '../../scaffolds/agent-cli/proxy.js';

/**
 * The recording proxy between an agent program and its model, with the real SDKs on the agent's side and the local
 * model server as the provider: what it forwards, what it records, and what it refuses.
 */
const server = useModelServer();
const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function startProxy(options: Partial<RecordingProxyOptions> & Pick<RecordingProxyOptions, 'api' | 'model'>) {
  const token = server.openSession(echoPolicy(), CONTEXT);
  const upstream = options.api === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const proxy = new RecordingProxy({ upstream, apiKey: token, prices: new PriceTable(), limits: {}, ...options });
  proxies.push(proxy);
  const port = await proxy.start();
  return { proxy, token, base: `http://127.0.0.1:${port}` };
}

const bashTool = { type: 'function' as const, name: 'bash', parameters: BASH.parameters, strict: false };

describe('the recording proxy', () => {
  it('forwards a streamed Responses turn with the real key and records it whole, with usage and cost', async () => {
    const { proxy, token, base } = await startProxy({ api: 'openai-responses', model: 'openai/gpt-5-codex' });
    const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 0 });
    const final = await sdk.responses
      .stream({ model: 'gpt-5-codex', input: 'Print hi.', tools: [bashTool], store: false, include: ['reasoning.encrypted_content'] })
      .finalResponse();
    expect(server.sessionStats(token)).toMatchObject({ requests: 1, answered: 1 });
    expect(proxy.exchanges).toHaveLength(1);
    const [turn] = proxy.exchanges;
    expect(turn).toMatchObject({ path: '/v1/responses', status: 200, text: 'Let me run it.', request: { model: 'gpt-5-codex', input: 'Print hi.' } });
    expect(turn!.reply).toMatchObject({ id: final.id, usage: final.usage });
    const items = (r: { output: { type: string; id?: string }[] }) => r.output.map((o) => `${o.type} ${o.id}`);
    expect(items(turn!.reply as never)).toEqual(items(final));
    expect(turn!.usage).toMatchObject({ inputTokens: final.usage!.input_tokens, outputTokens: final.usage!.output_tokens });
    expect(turn!.costUsd).toBeGreaterThan(0);
    expect(proxy.totals()).toMatchObject({ messages: 1, costUsd: turn!.costUsd, usage: turn!.usage });
  });

  it('puts a streamed Anthropic message back together: text, the tool call and its input', async () => {
    const { proxy, base } = await startProxy({ api: 'anthropic', model: 'anthropic/claude-sonnet-4-5' });
    const sdk = new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 0 });
    const final = await sdk.messages
      .stream({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Print hi.' }],
        tools: [{ name: 'bash', input_schema: BASH.parameters as Anthropic.Tool.InputSchema }],
      })
      .finalMessage();
    const [turn] = proxy.exchanges;
    expect(turn!.reply).toMatchObject({ id: final.id, content: final.content, stop_reason: final.stop_reason });
    expect(turn!.text).toBe('Let me run it.');
    expect(turn!.usage?.outputTokens).toBe(final.usage.output_tokens);
  });

  it('records a Chat Completions answer that is not streamed', async () => {
    const { proxy, base } = await startProxy({ api: 'openai-chat', model: 'openai/gpt-4o' });
    const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 0 });
    const answer = await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Print hi.' }] });
    expect(proxy.exchanges[0]!.reply).toEqual(JSON.parse(JSON.stringify(answer)));
    expect(proxy.exchanges[0]!.usage?.inputTokens).toBe(answer.usage!.prompt_tokens);
  });

  it('refuses a forged key, the provider key itself and any other route, and forwards none of them', async () => {
    const { proxy, token, base } = await startProxy({ api: 'openai-chat', model: 'openai/gpt-4o' });
    for (const apiKey of ['sk-forged', token, `${proxy.agentKey}x`]) {
      const sdk = new OpenAI({ apiKey, baseURL: `${base}/v1`, maxRetries: 0 });
      await expect(sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
        status: 401,
      });
    }
    const other = await fetch(`${base}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${proxy.agentKey}` }, body: '{}' });
    expect(other.status).toBe(404);
    const models = await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${proxy.agentKey}` } });
    expect(models.status).toBe(404);
    expect(server.sessionStats(token)?.requests).toBe(0);
    expect(proxy.exchanges).toEqual([]);
    expect(proxy.refused).toHaveLength(5);
  });

  it('refuses every request after the message limit, in the provider error shape, and says which limit', async () => {
    const { proxy, token, base } = await startProxy({ api: 'anthropic', model: 'anthropic/claude-sonnet-4-5', limits: { messages: 1 } });
    const sdk = new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 0 });
    const ask = () => sdk.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    await ask();
    const refusal = await ask().catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refusal as Error).message).toMatch(/message limit was reached/);
    expect(proxy.stopReason).toBe('message_limit');
    expect(server.sessionStats(token)?.requests).toBe(1);
  });

  it('stops on the token limit, the cost limit and the deadline', async () => {
    for (const [limits, reason] of [
      [{ tokens: 1 }, 'token_limit'],
      [{ costUsd: 1e-9 }, 'cost_limit'],
    ] as const) {
      const { proxy, base } = await startProxy({ api: 'openai-chat', model: 'openai/gpt-4o', limits });
      const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 0 });
      await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      await expect(sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
        status: 400,
      });
      expect(proxy.stopReason).toBe(reason);
    }
    const { proxy, base } = await startProxy({ api: 'openai-chat', model: 'openai/gpt-4o', limits: { deadline: Date.now() - 1 } });
    const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 0 });
    await expect(sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      status: 400,
    });
    expect(proxy.stopReason).toBe('time_limit');
  });

  it('marks the sample flagged when a reply carries the abort phrase', async () => {
    const { proxy, base } = await startProxy({ api: 'openai-chat', model: 'openai/gpt-4o', abortPhrase: 'Let me run' });
    const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 0 });
    await sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(proxy.stopReason).toBe('flagged');
  });
});
