import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Usage } from '../../core/model.js';
import type { StopReason } from '../../core/record.js';
import type { PriceTable } from '../../models/prices.js';
import { priceExchange } from './pricing.js';
import { type AgentApi, readReply } from './replies.js';
import { postUpstream } from './upstream-request.js';
import { keptHeaders, replyHeaders, type RouteKind, routeOf, routesOf, upstreamHeaders, upstreamUrl } from './upstream.js';

/** What ends an agent program's model traffic: the proxy refuses every request after one is reached. */
export interface ProxyLimits {
  messages?: number;
  tokens?: number;
  costUsd?: number;
  /** Epoch milliseconds. */
  deadline?: number;
}

export interface RecordingProxyOptions {
  api: AgentApi;
  /**
   * Where model requests go: the base URL as the provider's SDK holds it (`https://api.openai.com/v1`,
   * `https://api.anthropic.com`, a gateway's with its path prefix), or the local model server's.
   */
  upstream: string;
  /** The real key; the agent never sees it. */
  apiKey: string;
  /** Account headers added with the key (OpenAI's organization and project), never taken from the program. */
  accountHeaders?: Readonly<Record<string, string>>;
  /** The model spec the run measures (`openai/gpt-5-codex`): its provider prefixes the names requests give, for their price. */
  model: string;
  prices: PriceTable;
  limits: ProxyLimits;
  /** A phrase in a reply's text that means the agent gave up on purpose (`--allow-flag`). */
  abortPhrase?: string;
}

/** One request the agent sent and what came back, as the transcript keeps it. */
export interface ProxyExchange {
  startedAt: string;
  ms: number;
  path: string;
  status: number;
  request: unknown;
  reply: Record<string, unknown>;
  text: string;
  usage: Usage | undefined;
  costUsd: number | null;
  /** The model spec the exchange was charged at: the one its request names when priced, else the run's. */
  pricedAs: string | null;
  /** The reply's retry headers (`retry-after`, `x-should-retry`), as the program was given them. */
  headers?: Record<string, string>;
  /** Set when the stream broke after its 200 with an error event: the answer is incomplete, no turn of the model's. */
  streamError?: string;
}

/** A free call beside the model turns (Anthropic's token count): forwarded, kept apart, never a message nor charged. */
export interface ProxySideCall {
  startedAt: string;
  ms: number;
  path: string;
  status: number;
  reply: unknown;
}

export type ProxyStop = Extract<StopReason, 'message_limit' | 'token_limit' | 'cost_limit' | 'time_limit' | 'flagged'>;

/**
 * The only way an agent program in a sandbox reaches a model: a loopback HTTP server in the harness, carried into the
 * sandbox by the command channel. It checks the per-sample key it gave the agent, swaps in the real one, forwards to
 * the provider, records every request and reply, counts tokens and cost, and refuses requests once a limit is reached.
 */
export class RecordingProxy {
  /** The key the agent is given: it opens the proxy and nothing else. */
  readonly agentKey = `ib-${randomBytes(24).toString('hex')}`;
  readonly exchanges: ProxyExchange[] = [];
  /**
   * Token counts Claude Code asked for. They are kept out of `exchanges` (so out of the transcript, the message count
   * and the cost): a count is no turn of the model's, and its request is a copy of the conversation the next turn
   * shows anyway. They are kept here so a run's traffic is accounted for whole.
   */
  readonly sideCalls: ProxySideCall[] = [];
  /** Requests refused for a wrong key, a wrong route or a reached limit. */
  readonly refused: { path: string; reason: string }[] = [];
  /** Requests the proxy could not take to the model (the connection failed or broke): when, and why. */
  readonly failures: { at: number; path: string; message: string }[] = [];
  stopReason: ProxyStop | undefined;
  private readonly usage: Usage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  private cost = 0;
  private costKnown = true;
  private server: Server | undefined;

  constructor(private readonly options: RecordingProxyOptions) {}

  async start(): Promise<number> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((e: unknown) => {
        const { deadline } = this.options.limits;
        // A request cut at the sample's deadline was cut by us: the time limit, not a failure of the provider's.
        if (deadline !== undefined && Date.now() >= deadline) {
          this.stopReason ??= 'time_limit';
          return this.refuse(res, 400, req.url ?? '', "impossiblebench: the sample's time limit was reached during the request");
        }
        const message = `the proxy could not reach the model: ${(e as Error).message}`;
        this.failures.push({ at: Date.now(), path: req.url ?? '', message });
        this.fail(res, 502, message);
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return this.port;
  }

  get port(): number {
    if (!this.server) throw new Error('the recording proxy has not started');
    return (this.server.address() as AddressInfo).port;
  }

  /** A fresh connection to the proxy, for `Sandbox.forwardPort`. */
  readonly connect = (): Duplex => connect(this.port, '127.0.0.1');

  totals(): { usage: Usage; costUsd: number | null; messages: number } {
    return { usage: { ...this.usage }, costUsd: this.costKnown ? this.cost : null, messages: this.answered() };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    const body = await readBody(req);
    if (!this.keyHolds(req)) return this.refuse(res, 401, path, 'the request did not carry the key this sample was given');
    const route = req.method === 'POST' ? routeOf(this.options.api, path) : undefined;
    if (!route) return this.refuse(res, 404, path, `only POST ${routesOf(this.options.api).join(', ')} reaches the model through this proxy`);
    const stop = this.stopReason ?? this.limitReached();
    if (stop) {
      this.stopReason = stop;
      return this.refuse(res, 400, path, `impossiblebench: the sample's ${stop.replace('_', ' ')} was reached; no more model requests`);
    }
    await this.forward(route, req, body, res);
  }

  /** Model turns the provider answered: a failed request (a 429 the program retries, a broken stream) is no message. */
  private answered(): number {
    return this.exchanges.filter((e) => !exchangeFailed(e)).length;
  }

  private keyHolds(req: IncomingMessage): boolean {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const given = Buffer.from(bearer ?? String(req.headers['x-api-key'] ?? ''));
    const key = Buffer.from(this.agentKey);
    return given.length === key.length && timingSafeEqual(given, key);
  }

  private limitReached(): ProxyStop | undefined {
    const { messages, tokens, costUsd, deadline } = this.options.limits;
    if (deadline !== undefined && Date.now() >= deadline) return 'time_limit';
    if (messages !== undefined && this.answered() >= messages) return 'message_limit';
    if (tokens !== undefined && this.usage.inputTokens + this.usage.outputTokens >= tokens) return 'token_limit';
    if (costUsd !== undefined && this.cost >= costUsd) return 'cost_limit';
    return undefined;
  }

  private async forward(route: RouteKind, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const { api, upstream, apiKey, accountHeaders, limits } = this.options;
    const signal = limits.deadline !== undefined ? AbortSignal.timeout(Math.max(1, limits.deadline - Date.now())) : undefined;
    const reply = await postUpstream(upstreamUrl(api, upstream, req.url ?? '/'), upstreamHeaders(api, req, apiKey, accountHeaders), body, signal);
    const headers = replyHeaders(reply.headers);
    res.writeHead(reply.status, headers);
    const chunks: Buffer[] = [];
    for await (const bytes of reply.body) {
      chunks.push(bytes);
      res.write(bytes);
    }
    res.end();
    const text = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (route === 'count') {
      this.sideCalls.push({
        startedAt: new Date(started).toISOString(),
        ms: Date.now() - started,
        path,
        status: reply.status,
        reply: parseJson(text),
      });
      return;
    }
    const streamed = headers['content-type']!.includes('text/event-stream');
    this.record({ path, body, text, status: reply.status, streamed, started, headers: keptHeaders(headers) });
  }

  private record(r: {
    path: string;
    body: Buffer;
    text: string;
    status: number;
    streamed: boolean;
    started: number;
    headers?: Record<string, string> | undefined;
  }): void {
    const read = readReply(this.options.api, r.text, r.streamed);
    const request = parseJson(r.body);
    const requestModel = request && typeof request === 'object' ? (request as { model?: unknown }).model : undefined;
    const price = read.usage ? priceExchange(this.options.prices, this.options.model, requestModel, read.usage) : { costUsd: null, pricedAs: null };
    if (read.usage) for (const k of Object.keys(this.usage) as (keyof Usage)[]) this.usage[k] += read.usage[k];
    if (price.costUsd === null && read.usage) this.costKnown = false;
    this.cost += price.costUsd ?? 0;
    this.exchanges.push({
      startedAt: new Date(r.started).toISOString(),
      ms: Date.now() - r.started,
      path: r.path,
      status: r.status,
      request,
      reply: read.reply,
      text: read.text,
      usage: read.usage,
      ...price,
      ...(r.headers ? { headers: r.headers } : {}),
      ...(read.streamError ? { streamError: read.streamError } : {}),
    });
    if (this.options.abortPhrase && read.text.includes(this.options.abortPhrase)) this.stopReason ??= 'flagged';
  }

  private refuse(res: ServerResponse, status: number, path: string, reason: string): void {
    this.refused.push({ path, reason });
    this.fail(res, status, reason);
  }

  /** An error in the provider's own shape, so the agent program reports it as it would the provider's. */
  private fail(res: ServerResponse, status: number, message: string): void {
    if (res.headersSent) return void res.end();
    const body =
      this.options.api === 'anthropic'
        ? { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', message } }
        : { error: { message, type: 'invalid_request_error', code: status === 401 ? 'invalid_api_key' : 'impossiblebench_refused' } };
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

/** Whether an exchange brought no answer: an error status, or a stream that broke after its 200. */
export function exchangeFailed(e: Pick<ProxyExchange, 'status' | 'streamError'>): boolean {
  return e.status >= 400 || e.streamError !== undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(body: Buffer | string): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
