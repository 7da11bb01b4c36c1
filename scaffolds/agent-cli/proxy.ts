import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Usage } from '../../core/model.js';
import type { StopReason } from '../../core/record.js';
import type { PriceTable } from '../../models/prices.js';
import { type AgentApi, readReply } from './replies.js';

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
  /** Where model requests go: the provider's origin (`https://api.openai.com`) or the local model server's. */
  upstream: string;
  /** The real key; the agent never sees it. */
  apiKey: string;
  /** The model spec the run measures (`openai/gpt-5-codex`), for the price. */
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
}

export type ProxyStop = Extract<StopReason, 'message_limit' | 'token_limit' | 'cost_limit' | 'time_limit' | 'flagged'>;

/** The model endpoints each API may reach through the proxy; nothing else of the provider's is forwarded. */
const ROUTES: Record<AgentApi, readonly string[]> = {
  'openai-chat': ['/v1/chat/completions'],
  'openai-responses': ['/v1/responses'],
  anthropic: ['/v1/messages'],
};
/** Request headers the proxy passes on: content negotiation and API versions, never credentials. */
const PASSED_HEADERS = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'openai-beta', 'user-agent'];

/**
 * The only way an agent program in a sandbox reaches a model: a loopback HTTP server in the harness, carried into the
 * sandbox by the command channel. It checks the per-sample key it gave the agent, swaps in the real one, forwards to
 * the provider, records every request and reply, counts tokens and cost, and refuses requests once a limit is reached.
 */
export class RecordingProxy {
  /** The key the agent is given: it opens the proxy and nothing else. */
  readonly agentKey = `ib-${randomBytes(24).toString('hex')}`;
  readonly exchanges: ProxyExchange[] = [];
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
    return { usage: { ...this.usage }, costUsd: this.costKnown ? this.cost : null, messages: this.exchanges.length };
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
    if (req.method !== 'POST' || !ROUTES[this.options.api].includes(path)) {
      return this.refuse(res, 404, path, `only POST ${ROUTES[this.options.api].join(', ')} reaches the model through this proxy`);
    }
    const stop = this.stopReason ?? this.limitReached();
    if (stop) {
      this.stopReason = stop;
      return this.refuse(res, 400, path, `impossiblebench: the sample's ${stop.replace('_', ' ')} was reached; no more model requests`);
    }
    await this.forward(path, req, body, res);
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
    if (messages !== undefined && this.exchanges.length >= messages) return 'message_limit';
    if (tokens !== undefined && this.usage.inputTokens + this.usage.outputTokens >= tokens) return 'token_limit';
    if (costUsd !== undefined && this.cost >= costUsd) return 'cost_limit';
    return undefined;
  }

  private async forward(path: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const { deadline } = this.options.limits;
    const reply = await fetch(new URL(path, this.options.upstream), {
      method: 'POST',
      headers: this.upstreamHeaders(req),
      body: new Uint8Array(body),
      ...(deadline !== undefined ? { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) } : {}),
    });
    const streamed = (reply.headers.get('content-type') ?? '').includes('text/event-stream');
    res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? 'application/json' });
    const chunks: Buffer[] = [];
    const reader = reply.body?.getReader();
    for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
      const bytes = Buffer.from(next.value);
      chunks.push(bytes);
      res.write(bytes);
    }
    res.end();
    this.record(path, body, Buffer.concat(chunks).toString('utf8'), reply.status, streamed, started);
  }

  private upstreamHeaders(req: IncomingMessage): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (this.options.api === 'anthropic') headers['x-api-key'] = this.options.apiKey;
    else headers.authorization = `Bearer ${this.options.apiKey}`;
    return headers;
  }

  private record(path: string, body: Buffer, text: string, status: number, streamed: boolean, started: number): void {
    const read = readReply(this.options.api, text, streamed);
    const costUsd = read.usage ? this.options.prices.cost(this.options.model, read.usage) : null;
    if (read.usage) for (const k of Object.keys(this.usage) as (keyof Usage)[]) this.usage[k] += read.usage[k];
    if (costUsd === null && read.usage) this.costKnown = false;
    this.cost += costUsd ?? 0;
    this.exchanges.push({
      startedAt: new Date(started).toISOString(),
      ms: Date.now() - started,
      path,
      status,
      request: parseJson(body),
      reply: read.reply,
      text: read.text,
      usage: read.usage,
      costUsd,
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

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return body.toString('utf8');
  }
}
