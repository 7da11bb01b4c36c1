import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { PriceTable } from '../../models/prices.js';
import { RecordingProxy, type RecordingProxyOptions } from '../../scaffolds/agent-cli/proxy.js';
import type { AgentApi } from '../../scaffolds/agent-cli/replies.js';
import { exchangesToTranscript, TRANSCRIPT_NAMES } from '../../scaffolds/agent-cli/transcript.js';
import { upstreamUrl } from '../../scaffolds/agent-cli/upstream.js';
import type { ModelServer, ModelServerOptions } from '../server/index.js';
import { CONTEXT, echoPolicy } from '../testing/echo.js';
import { withModelServer } from '../testing/model-server.js';

/**
 * The recording proxy against a provider as users meet one: a base URL under a gateway's path prefix, Anthropic's
 * token count, side requests to a cheaper model, rate limits with Retry-After, gzip'd answers and a gateway's HTML
 * error page. The real SDKs on the agent's side, the local model server (mounted, compressing, faulting) upstream.
 */
const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

type Options = Partial<RecordingProxyOptions> & Pick<RecordingProxyOptions, 'api' | 'model'>;

async function startProxy(server: ModelServer, options: Options, faults?: Parameters<ModelServer['openSession']>[2]) {
  const token = server.openSession(echoPolicy(), CONTEXT, faults);
  const upstream = options.api === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl;
  const proxy = new RecordingProxy({ upstream, apiKey: token, prices: new PriceTable(), limits: {}, ...options });
  proxies.push(proxy);
  const base = `http://127.0.0.1:${await proxy.start()}`;
  return { proxy, token, base };
}

const withServer = <T>(options: ModelServerOptions, fn: (server: ModelServer) => Promise<T>) => withModelServer(fn, options);
const ask = (sdk: Anthropic, model: string) => sdk.messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Print hi.' }] });

describe('the upstream URL', () => {
  /** What the agent sends the proxy, and the route each SDK itself puts after its base URL. */
  const routes: [AgentApi, string, string, Record<string, unknown> | undefined][] = [
    ['openai-responses', '/v1/responses', '/responses', undefined],
    ['openai-chat', '/v1/chat/completions', '/chat/completions', undefined],
    ['anthropic', '/v1/messages?beta=true', '/v1/messages', { beta: 'true' }],
    ['anthropic', '/v1/messages/count_tokens', '/v1/messages/count_tokens', undefined],
  ];
  const bases = ['https://api.example', 'https://gateway.example/openai/v1', 'http://host:8080/proxy/anthropic/', 'http://host/a/b/v1/'];

  it('is where the provider SDK given the same base URL sends the request, path prefix and query kept', () => {
    for (const base of bases) {
      for (const [api, asked, route, query] of routes) {
        const sdk = api === 'anthropic' ? new Anthropic({ apiKey: 'k', baseURL: base }) : new OpenAI({ apiKey: 'k', baseURL: base });
        expect(upstreamUrl(api, base, asked).href, `${api} ${base}`).toBe(sdk.buildURL(route, query));
      }
    }
    expect(upstreamUrl('openai-chat', 'https://gateway.example/openai/v1', '/v1/chat/completions').href).toBe(
      'https://gateway.example/openai/v1/chat/completions',
    );
    expect(upstreamUrl('anthropic', 'http://host/proxy/anthropic', '/v1/messages').href).toBe('http://host/proxy/anthropic/v1/messages');
  });

  it('reaches a server mounted under a path prefix, for each API', async () => {
    await withServer({ pathPrefix: '/gateway/llm' }, async (server) => {
      expect(server.openaiBaseUrl).toMatch(/\/gateway\/llm\/v1$/);
      const claude = await startProxy(server, { api: 'anthropic', model: 'anthropic/claude-sonnet-4-5' });
      await ask(new Anthropic({ apiKey: claude.proxy.agentKey, baseURL: claude.base, maxRetries: 0 }), 'claude-sonnet-4-5');
      const chat = await startProxy(server, { api: 'openai-chat', model: 'openai/gpt-4o' });
      const openai = new OpenAI({ apiKey: chat.proxy.agentKey, baseURL: `${chat.base}/v1`, maxRetries: 0 });
      await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      const responses = await startProxy(server, { api: 'openai-responses', model: 'openai/gpt-5-codex' });
      const codex = new OpenAI({ apiKey: responses.proxy.agentKey, baseURL: `${responses.base}/v1`, maxRetries: 0 });
      await codex.responses.create({ model: 'gpt-5-codex', input: 'hi', store: false });
      for (const { proxy, token } of [claude, chat, responses]) {
        expect(proxy.exchanges.map((e) => e.status)).toEqual([200]);
        expect(server.sessionStats(token)).toMatchObject({ requests: 1, answered: 1 });
      }
    });
  });

  it('the server under a prefix answers nothing outside it', async () => {
    await withServer({ pathPrefix: '/gateway' }, async (server) => {
      const token = server.openSession(echoPolicy(), CONTEXT);
      const outside = await fetch(`${new URL(server.url).origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(outside.status).toBe(404);
      expect(server.sessionStats(token)?.requests).toBe(0);
    });
  });
});

describe("Anthropic's token count through the proxy", () => {
  it('is forwarded with the real key and answered as Anthropic documents, never a message nor a cost', async () => {
    await withServer({}, async (server) => {
      const { proxy, token, base } = await startProxy(server, { api: 'anthropic', model: 'anthropic/claude-sonnet-4-5', limits: { messages: 1 } });
      const sdk = new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 0 });
      const messages = [{ role: 'user' as const, content: 'Print hi, then list the files.' }];
      const count = await sdk.messages.countTokens({ model: 'claude-sonnet-4-5', messages });
      expect(Object.keys(count)).toEqual(['input_tokens']);
      expect(count.input_tokens).toBeGreaterThan(0);
      // The beta route (Claude Code's) too; and the one message the limit allows is still there after both counts.
      await sdk.beta.messages.countTokens({ model: 'claude-sonnet-4-5', messages });
      const answer = await sdk.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, messages });
      expect(answer.usage.input_tokens).toBe(count.input_tokens);
      expect(proxy.sideCalls.map((c) => `${c.path} ${c.status}`)).toEqual(['/v1/messages/count_tokens 200', '/v1/messages/count_tokens 200']);
      expect(proxy.sideCalls[0]!.reply).toEqual({ input_tokens: count.input_tokens });
      expect(proxy.exchanges).toHaveLength(1);
      expect(proxy.totals()).toMatchObject({ messages: 1, costUsd: proxy.exchanges[0]!.costUsd });
      expect(server.sessionStats(token)).toMatchObject({ requests: 1, answered: 1 });
    });
  });

  it('is refused on the OpenAI APIs, which have no such route', async () => {
    await withServer({}, async (server) => {
      const { proxy, base } = await startProxy(server, { api: 'openai-chat', model: 'openai/gpt-4o' });
      const r = await fetch(`${base}/v1/messages/count_tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${proxy.agentKey}` },
        body: '{}',
      });
      expect(r.status).toBe(404);
      expect(proxy.sideCalls).toEqual([]);
    });
  });
});

describe('each request priced by the model it names', () => {
  it('charges a side request to a haiku at the haiku rate, the main ones at the run model, and limits on the sum', async () => {
    await withServer({}, async (server) => {
      const prices = new PriceTable();
      const { proxy, base } = await startProxy(server, { api: 'anthropic', model: 'anthropic/claude-sonnet-4-5', prices });
      const sdk = new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 0 });
      await ask(sdk, 'claude-sonnet-4-5');
      await ask(sdk, 'claude-haiku-4-5-20251001');
      await ask(sdk, 'a-model-no-table-knows');
      const [main, side, unknown] = proxy.exchanges;
      expect(proxy.exchanges.map((e) => e.pricedAs)).toEqual([
        'anthropic/claude-sonnet-4-5',
        'anthropic/claude-haiku-4-5-20251001',
        'anthropic/claude-sonnet-4-5',
      ]);
      expect(side!.costUsd).toBeCloseTo(prices.cost('anthropic/claude-haiku-4-5', side!.usage!)!, 12);
      expect(side!.costUsd).toBeLessThan(prices.cost('anthropic/claude-sonnet-4-5', side!.usage!)!);
      expect(main!.costUsd).toBeCloseTo(prices.cost('anthropic/claude-sonnet-4-5', main!.usage!)!, 12);
      expect(unknown!.costUsd).toBeCloseTo(prices.cost('anthropic/claude-sonnet-4-5', unknown!.usage!)!, 12);
      expect(proxy.totals().costUsd).toBeCloseTo(main!.costUsd! + side!.costUsd! + unknown!.costUsd!, 12);
    });
  });

  it('stops on the cost limit by the sum of each request at its own price', async () => {
    await withServer({}, async (server) => {
      const prices = new PriceTable();
      const probe = await startProxy(server, { api: 'anthropic', model: 'anthropic/claude-opus-4-1', prices });
      await ask(new Anthropic({ apiKey: probe.proxy.agentKey, baseURL: probe.base, maxRetries: 0 }), 'claude-haiku-4-5');
      const haikuCost = probe.proxy.exchanges[0]!.costUsd!;
      // At the run model's (opus) price one request would pass the limit; at the haiku's it takes three.
      const limits = { costUsd: haikuCost * 2.5 };
      const { proxy, base } = await startProxy(server, { api: 'anthropic', model: 'anthropic/claude-opus-4-1', prices, limits });
      const sdk = new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 0 });
      for (let i = 0; i < 3; i++) await ask(sdk, 'claude-haiku-4-5');
      await expect(ask(sdk, 'claude-haiku-4-5')).rejects.toMatchObject({ status: 400 });
      expect(proxy.exchanges).toHaveLength(3);
      expect(proxy.stopReason).toBe('cost_limit');
    });
  });

  it('keeps a scripted run free whatever model its program names', async () => {
    await withServer({}, async (server) => {
      const { proxy, base } = await startProxy(server, { api: 'anthropic', model: 'scripted/honest' });
      await ask(new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 0 }), 'claude-haiku-4-5');
      expect(proxy.exchanges[0]).toMatchObject({ costUsd: 0, pricedAs: 'scripted/honest' });
    });
  });
});

describe('what a provider answers besides a turn', () => {
  it('passes a 429 with Retry-After to the program untouched, records it, and counts no message for it', async () => {
    await withServer({}, async (server) => {
      const faults = { faults: { sequence: ['rate_limit' as const], retryAfterSeconds: 7 } };
      const { proxy, base } = await startProxy(server, { api: 'anthropic', model: 'anthropic/claude-sonnet-4-5', limits: { messages: 1 } }, faults);
      const sdk = new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 0 });
      const limited = await ask(sdk, 'claude-sonnet-4-5').catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
      expect((limited as InstanceType<typeof Anthropic.RateLimitError>).headers.get('retry-after')).toBe('7');
      expect((limited as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({ error: { type: 'rate_limit_error' } });
      await ask(sdk, 'claude-sonnet-4-5');
      expect(proxy.exchanges.map((e) => [e.status, e.headers?.['retry-after'], e.costUsd])).toEqual([
        [429, '7', null],
        [200, undefined, proxy.exchanges[1]!.costUsd],
      ]);
      expect(proxy.totals().messages).toBe(1);
    });
  });

  it("reads a gzip'd answer and hands the program the plain body", async () => {
    await withServer({ gzip: true }, async (server) => {
      const { proxy, base } = await startProxy(server, { api: 'openai-chat', model: 'openai/gpt-4o' });
      const direct = await fetch(`${server.openaiBaseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.openSession(echoPolicy(), CONTEXT)}`,
          'content-type': 'application/json',
          'accept-encoding': 'gzip',
        },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(direct.headers.get('content-encoding')).toBe('gzip');
      expect(server.stats().gzipped).toBe(1);
      const reply = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${proxy.agentKey}`, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(reply.headers.get('content-encoding')).toBeNull();
      // The proxy asked for gzip and was answered so.
      expect(server.stats().gzipped).toBe(2);
      const body = (await reply.json()) as OpenAI.ChatCompletion;
      expect(body.choices[0]!.message.content).toBe('Let me run it.');
      expect(proxy.exchanges[0]).toMatchObject({ status: 200, text: 'Let me run it.', reply: { id: body.id } });
      expect(proxy.exchanges[0]!.usage?.inputTokens).toBe(body.usage!.prompt_tokens);
    });
  });

  it('records a stream that breaks after its 200 as a failed request, no message, and says so in the transcript', async () => {
    await withServer({}, async (server) => {
      const faults = { faults: { sequence: ['stream_error' as const] } };
      const { proxy, base } = await startProxy(server, { api: 'anthropic', model: 'anthropic/claude-sonnet-4-5' }, faults);
      const sdk = new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 0 });
      const stream = () => sdk.messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Print hi.' }] });
      const broken = await stream()
        .finalMessage()
        .catch((e: unknown) => e);
      expect(broken).toBeInstanceOf(Anthropic.APIError);
      expect((broken as Error).message).toMatch(/Overloaded/);
      await stream().finalMessage();
      expect(proxy.exchanges.map((e) => [e.status, e.streamError])).toEqual([
        [200, 'overloaded_error: Overloaded'],
        [200, undefined],
      ]);
      expect(proxy.totals().messages).toBe(1);
      const notes = exchangesToTranscript('anthropic', proxy.exchanges).filter((m) => m.name === TRANSCRIPT_NAMES.failed);
      expect(notes.map((m) => m.content)).toEqual(['HTTP 200 on /v1/messages: the stream broke after it began: overloaded_error: Overloaded']);
    });
  });

  it('reads a broken Chat Completions stream, whose error comes as a chunk', async () => {
    await withServer({}, async (server) => {
      const faults = { faults: { sequence: ['stream_error' as const] } };
      const { proxy, base } = await startProxy(server, { api: 'openai-chat', model: 'openai/gpt-4o' }, faults);
      const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 0 });
      const read = async () => {
        const chunks = await sdk.chat.completions.create({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'hi' }] });
        for await (const _ of chunks);
      };
      await expect(read()).rejects.toBeInstanceOf(OpenAI.APIError);
      expect(proxy.exchanges[0]).toMatchObject({ status: 200, streamError: expect.stringMatching(/^server_error: The server had an error/) });
      expect(proxy.totals().messages).toBe(0);
    });
  });

  it('takes a request cut at the sample deadline for the time limit, not a provider failure', async () => {
    await withServer({}, async (server) => {
      const faults = { faults: { sequence: ['slow' as const], slowMs: 60_000 } };
      const limits = { deadline: Date.now() + 500 };
      const { proxy, base } = await startProxy(server, { api: 'openai-chat', model: 'openai/gpt-4o', limits }, faults);
      const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 0 });
      await expect(sdk.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
        status: 400,
      });
      expect(proxy.stopReason).toBe('time_limit');
      expect(proxy.failures).toEqual([]);
      expect(proxy.exchanges).toEqual([]);
    });
  });

  it("passes a gateway's HTML error page on as it came and records it readably", async () => {
    await withServer({}, async (server) => {
      const faults = { faults: { sequence: ['gateway_error' as const] } };
      const { proxy, base } = await startProxy(server, { api: 'openai-responses', model: 'openai/gpt-5-codex' }, faults);
      const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 0 });
      const failed = await sdk.responses.create({ model: 'gpt-5-codex', input: 'hi', store: false }).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(OpenAI.InternalServerError);
      expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect((failed as InstanceType<typeof OpenAI.APIError>).headers?.get('content-type')).toBe('text/html');
      const [exchange] = proxy.exchanges;
      expect(exchange).toMatchObject({ status: 502, usage: undefined, costUsd: null });
      expect(exchange!.reply.body).toMatch(/502 Bad Gateway/);
      expect(proxy.failures).toEqual([]);
    });
  });
});

describe("OpenAI's organization and project", () => {
  it('reach the provider as the harness holds them, never as the program sends them', async () => {
    const { createServer } = await import('node:http');
    const seen: Record<string, string | undefined>[] = [];
    const upstream = createServer((req, res) => {
      seen.push({
        org: req.headers['openai-organization'] as string,
        project: req.headers['openai-project'] as string,
        auth: req.headers.authorization,
      });
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit' } }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const port = (upstream.address() as { port: number }).port;
      const proxy = new RecordingProxy({
        api: 'openai-responses',
        model: 'openai/gpt-5-codex',
        upstream: `http://127.0.0.1:${port}/v1`,
        apiKey: 'sk-real',
        accountHeaders: { 'openai-organization': 'org-real', 'openai-project': 'proj-real' },
        prices: new PriceTable(),
        limits: {},
      });
      proxies.push(proxy);
      const base = `http://127.0.0.1:${await proxy.start()}/v1`;
      const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: base, organization: 'org-forged', project: 'proj-forged', maxRetries: 0 });
      await expect(sdk.responses.create({ model: 'gpt-5-codex', input: 'hi' })).rejects.toMatchObject({ status: 429 });
      expect(seen).toEqual([{ org: 'org-real', project: 'proj-real', auth: 'Bearer sk-real' }]);
    } finally {
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });
});
