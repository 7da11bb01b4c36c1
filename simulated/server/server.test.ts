import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../models/factory.js';
import { BASH, CONTEXT, echoPolicy } from '../testing/echo.js';
import type { Policy } from '../policy.js';
import { startModelServer, type ModelServer } from './index.js';

const servers: ModelServer[] = [];
async function start(options: Parameters<typeof startModelServer>[0] = {}) {
  const server = await startModelServer(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const chat = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
const messages = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

describe('the local model server', () => {
  it('listens on 127.0.0.1 on a free port by default', async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.openaiBaseUrl).toBe(`${server.url}/v1`);
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ ok: true });
  });

  it('refuses unknown session tokens in each wire format', async () => {
    const server = await start();
    const openai = await post(`${server.openaiBaseUrl}/chat/completions`, chat, { authorization: 'Bearer nope' });
    expect(openai.status).toBe(401);
    expect(await openai.json()).toMatchObject({ error: { type: 'invalid_api_key' } });
    const anthropic = await post(`${server.url}/v1/messages`, messages, { 'x-api-key': 'nope' });
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('answers bad requests with 400 naming the field, and unknown routes with 404', async () => {
    const server = await start();
    const token = server.openSession(echoPolicy(), CONTEXT);
    const auth = { authorization: `Bearer ${token}` };
    const notJson = await post(`${server.openaiBaseUrl}/chat/completions`, '{oops', auth);
    expect(notJson.status).toBe(400);
    const badRole = await post(`${server.openaiBaseUrl}/chat/completions`, { model: 'm', messages: [{ role: 'robot', content: 'x' }] }, auth);
    expect(badRole.status).toBe(400);
    expect(((await badRole.json()) as { error: { message: string } }).error.message).toMatch(/^messages\.0\.role/);
    const noMax = await post(`${server.url}/v1/messages`, { model: 'm', messages: messages.messages }, { 'x-api-key': token });
    expect(noMax.status).toBe(400);
    expect(((await noMax.json()) as { error: { message: string } }).error.message).toMatch(/^max_tokens/);
    expect((await post(`${server.url}/v1/embeddings`, {}, auth)).status).toBe(404);
  });

  it('speaks the Responses API, with OpenAI’s error bodies, and refuses codex models on Chat Completions', async () => {
    const server = await start();
    const token = server.openSession(echoPolicy(), CONTEXT);
    const auth = { authorization: `Bearer ${token}` };
    const url = `${server.openaiBaseUrl}/responses`;
    const unknown = await post(url, { model: 'm', input: 'hi' }, { authorization: 'Bearer nope' });
    expect([unknown.status, await unknown.json()]).toEqual([401, { error: expect.objectContaining({ type: 'invalid_api_key' }) }]);
    const badItem = await post(url, { model: 'm', input: [{ type: 'function_call', name: 'bash', arguments: '{}' }] }, auth);
    expect(badItem.status).toBe(400);
    expect(((await badItem.json()) as { error: { message: string } }).error.message).toMatch(/^input\.0\.call_id/);
    // Nothing is stored here, so nothing can be referred to.
    const reference = await post(url, { model: 'm', store: false, input: [{ type: 'item_reference', id: 'msg_1' }] }, auth);
    expect(await reference.json()).toMatchObject({
      error: { message: expect.stringMatching(/^Item with id 'msg_1' not found\. Items are not persisted/) },
    });

    const answer = await post(url, { model: 'gpt-5-codex', instructions: 'Be brief.', input: 'hi', store: false }, auth);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { object: string; status: string; output: { type: string }[]; usage: Record<string, unknown> };
    expect(body).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-5-codex' });
    expect(body.output.map((o) => o.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(body.usage).toMatchObject({ input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: expect.any(Number) } });

    const codex = await post(`${server.openaiBaseUrl}/chat/completions`, { ...chat, model: 'gpt-5.1-codex-mini' }, auth);
    expect([codex.status, await codex.json()]).toEqual([
      400,
      {
        error: {
          message: 'This model is only supported in v1/responses and not in v1/chat/completions.',
          type: 'invalid_request_error',
          param: 'model',
          code: null,
        },
      },
    ]);
  });

  it('accepts the Responses tool kinds agent programs send beside function tools, and still names a function tool without a name', async () => {
    const server = await start();
    const policy = echoPolicy();
    const token = server.openSession(policy, CONTEXT);
    const tools = [
      { type: 'function', name: 'exec_command', parameters: BASH.parameters, strict: false },
      { type: 'web_search', external_web_access: true },
      { type: 'namespace', name: 'multi_agent_v1', description: 'Sub-agents.', tools: [{ type: 'function', name: 'close_agent', parameters: {} }] },
      { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
    ];
    const answer = await post(
      `${server.openaiBaseUrl}/responses`,
      { model: 'gpt-5-codex', input: 'hi', tools, stream: false },
      { authorization: `Bearer ${token}` },
    );
    expect(answer.status).toBe(200);
    expect(server.sessionStats(token)?.answered).toBe(1);
    const unnamed = await post(
      `${server.openaiBaseUrl}/responses`,
      { model: 'gpt-5-codex', input: 'hi', tools: [{ type: 'function' }] },
      { authorization: `Bearer ${token}` },
    );
    expect(unnamed.status).toBe(400);
  });

  it('reports a failing policy as a 500 that is not worth retrying', async () => {
    const server = await start();
    const broken: Policy = {
      name: 'broken',
      next() {
        throw new Error('no idea');
      },
    };
    const client = createModelClient('scripted/broken', { server, context: CONTEXT, policy: broken, retry: { baseDelayMs: 1 } });
    const err = await client.generate([{ role: 'user', content: 'hi' }], []).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ModelApiError', status: 500, attempts: 1 });
    expect((err as Error).message).toMatch(/policy broken failed: no idea/);
  });

  it('injects the same faults for the same seed and session keys, run after run', async () => {
    const faults = { rateLimit: 0.3, serverError: 0.2, malformedToolCall: 0.5, retryAfterSeconds: 0 };
    const trace = async (seed: number) => {
      const server = await start({ seed, faults });
      const out = [];
      for (const key of ['a', 'b', 'c']) {
        const client = createModelClient('scripted/echo', {
          server,
          context: CONTEXT,
          policy: echoPolicy(),
          session: { key },
          retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetries: 30 },
        });
        const calls = [];
        for (let turn = 0; turn < 4; turn++)
          calls.push((await client.generate([{ role: 'user', content: `turn ${turn}` }], [BASH])).toolCalls[0]?.arguments);
        out.push(calls);
      }
      return { calls: out, requests: server.stats().requests };
    };
    const first = await trace(5);
    expect(await trace(5)).toEqual(first);
    // Some calls came back broken and some requests were refused, all the same way both times.
    expect(first.calls.flat().some((a) => a !== '{"command":"echo hi"}')).toBe(true);
    expect(first.requests).toBeGreaterThan(12);
  });

  it('closes cleanly with a slow answer pending, and stays closed', async () => {
    const server = await start();
    const token = server.openSession(echoPolicy(), CONTEXT, { faults: { slow: 1, slowMs: 60_000 } });
    const pending = post(`${server.openaiBaseUrl}/chat/completions`, chat, { authorization: `Bearer ${token}` }).then(
      (r) => r.status,
      (e: unknown) => e,
    );
    // Let the request reach the server before closing.
    while ((server.sessionStats(token)?.requests ?? 0) === 0) await new Promise((r) => setTimeout(r, 10));
    await server.close();
    await server.close();
    expect(await pending).toBeInstanceOf(Error);
    expect(() => server.openSession(echoPolicy(), CONTEXT)).toThrow(/closed/);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it('rejects a bad fault config with the field at fault', async () => {
    await expect(startModelServer({ faults: { rateLimit: 2 } })).rejects.toThrow(/rateLimit/);
  });
});
