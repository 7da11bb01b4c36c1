import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { onlyOnResponses } from '../../models/spec.js';
import type { Policy, PolicyContext, PolicyTurn } from '../policy.js';
import { newPromptCache, servedCacheUsage, type PromptCache } from './cache.js';
import { anthropicError, anthropicOverflow, fromMessagesRequest, MessagesRequestSchema, toMessage, toMessageEvents } from './anthropic-wire.js';
import {
  corruptArguments,
  decideFault,
  FaultConfigSchema,
  withParallelCall,
  type FaultConfig,
  type FaultKind,
  type ResolvedFaultConfig,
} from './faults.js';
import { HttpError, readJsonBody, sendJson, sessionToken, startSse } from './http.js';
import {
  ChatCompletionRequestSchema,
  fromChatCompletionRequest,
  openaiError,
  openaiOverflow,
  openaiOverloaded,
  toChatCompletion,
  toChatCompletionChunks,
  type ServedTurn,
} from './openai-wire.js';
import {
  fromResponsesRequest,
  onlyOnResponsesError,
  ResponsesRequestSchema,
  ResponsesSessions,
  responsesOverflow,
  toResponseEvents,
  type ResponsesRequest,
} from './responses-wire.js';
import { countInputTokens, countOutputTokens } from './tokens.js';

export interface ModelServerOptions {
  /** Default 127.0.0.1; the server is for this machine only. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Seeds fault injection. Default 0. */
  seed?: number;
  /** Fault rates for every session that does not bring its own. Default: no faults. */
  faults?: FaultConfig;
  logger?: Logger;
}

export interface SessionOptions {
  /** Names the session in fault draws, so the same key sees the same faults on every run. Default: the opening order. */
  key?: string;
  /** Replaces the server's fault config for this session. */
  faults?: FaultConfig;
}

export interface SessionStats {
  key: string;
  /** Requests that reached the session, retries included. */
  requests: number;
  /** Answers the policy gave. */
  answered: number;
  /** Faults injected, by request number (0-based). */
  faults: { request: number; kind: Exclude<FaultKind, 'none'> }[];
  /** Responses requests that carried the reasoning item of the session's previous answer back (see responses-wire.ts). */
  reasoningCarried: number;
  /** The generation settings of the latest request as they arrived on the wire (model, sampling, budgets). */
  lastParams?: Record<string, unknown>;
  /** The `cache_control` breakpoints of the latest Messages request, by where they fall (see cache.ts). */
  lastCacheBreakpoints?: number[];
}

/** Request fields that say how to generate, kept so a caller can see what its client really sent. */
const PARAM_FIELDS = [
  'model',
  'temperature',
  'seed',
  'max_tokens',
  'max_completion_tokens',
  'reasoning_effort',
  'thinking',
  'output_config',
  'max_output_tokens',
  'reasoning',
  'store',
  'include',
  'prompt_cache_key',
  'stream',
];

export interface ModelServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** Base URL for the OpenAI SDK (`…/v1`). */
  readonly openaiBaseUrl: string;
  /** Base URL for the Anthropic SDK (it appends `/v1/messages`). */
  readonly anthropicBaseUrl: string;
  /** Opens a conversation driven by `policy`; the returned token is the client's API key. */
  openSession(policy: Policy, context: PolicyContext, options?: SessionOptions): string;
  closeSession(token: string): void;
  sessionStats(token: string): SessionStats | undefined;
  /** Requests served so far and the most that were ever in flight at once. */
  stats(): { requests: number; inFlight: number; maxInFlight: number };
  /** Stops listening, drops open connections and pending slow answers. Idempotent. */
  close(): Promise<void>;
}

interface Session {
  policy: Policy;
  context: PolicyContext;
  faults: ResolvedFaultConfig;
  /** What this session's prompts have left in the provider's cache. */
  cache: PromptCache;
  stats: SessionStats;
}

type Wire = 'openai' | 'anthropic' | 'responses';

function parseFaults(config: FaultConfig | undefined, what: string): ResolvedFaultConfig {
  const parsed = FaultConfigSchema.safeParse(config ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${what}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function describeZodError(err: z.ZodError): string {
  const issue = err.issues[0];
  return `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid request'}`;
}

/** Starts the local model server: OpenAI Chat Completions and Responses, and Anthropic Messages, answered by policies. */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const seed = options.seed ?? 0;
  const defaultFaults = parseFaults(options.faults, 'model server faults');
  const log = options.logger;
  const sessions = new Map<string, Session>();
  const responses = new ResponsesSessions();
  const pendingTimers = new Set<NodeJS.Timeout>();
  let opened = 0;
  const load = { requests: 0, inFlight: 0, maxInFlight: 0 };
  let closing: Promise<void> | undefined;

  const delay = (ms: number, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        resolve();
      }, ms);
      pendingTimers.add(timer);
      // A client that gave up (timeout) frees the slot at once. (The request's own 'close' fires as
      // soon as its body is read, so it is the response that tells.)
      res.once('close', () => {
        clearTimeout(timer);
        pendingTimers.delete(timer);
        resolve();
      });
    });

  const fail = (res: ServerResponse, wire: Wire, status: number, message: string, headers: Record<string, string> = {}) =>
    sendJson(res, status, wire === 'anthropic' ? anthropicError(status, message) : openaiError(status, message), headers);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { ok: true });
    const wire: Wire | undefined =
      path === '/v1/chat/completions' || path === '/chat/completions'
        ? 'openai'
        : path === '/v1/messages'
          ? 'anthropic'
          : path === '/v1/responses' || path === '/responses'
            ? 'responses'
            : undefined;
    if (!wire) return fail(res, 'openai', 404, `no route for ${req.method} ${path}`);
    if (req.method !== 'POST') return fail(res, wire, 405, `${path} takes POST`);

    const token = sessionToken(req);
    const session = token ? sessions.get(token) : undefined;
    if (!session) return fail(res, wire, 401, 'unknown or closed session token');

    const body = await readJsonBody(req);
    const request = session.stats.requests++;
    if (body && typeof body === 'object') {
      session.stats.lastParams = Object.fromEntries(PARAM_FIELDS.filter((f) => f in body).map((f) => [f, (body as Record<string, unknown>)[f]]));
    }
    const decision = decideFault(session.faults, seed, session.stats.key, request);
    const record = (kind: Exclude<FaultKind, 'none'>) => session.stats.faults.push({ request, kind });

    if (decision.slow) {
      record('slow');
      await delay(session.faults.slowMs, res);
      if (res.destroyed || closing) return;
    }
    if (decision.error === 'rate_limit') {
      record('rate_limit');
      const seconds = Math.ceil(session.faults.retryAfterSeconds);
      return fail(res, wire, 429, 'rate limit reached (injected)', { 'retry-after': String(seconds) });
    }
    if (decision.error === 'server_error') {
      record('server_error');
      return fail(res, wire, 500, 'internal server error (injected)');
    }
    if (decision.error === 'overloaded') {
      record('overloaded');
      return wire === 'anthropic' ? fail(res, wire, 529, 'Overloaded') : sendJson(res, 503, openaiOverloaded());
    }

    const parsed =
      wire === 'openai'
        ? ChatCompletionRequestSchema.safeParse(body)
        : wire === 'anthropic'
          ? MessagesRequestSchema.safeParse(body)
          : ResponsesRequestSchema.safeParse(body);
    if (!parsed.success) return fail(res, wire, 400, describeZodError(parsed.error));
    const model = (parsed.data as { model: string }).model;
    // As OpenAI does: a codex model is served only through the Responses API.
    if (wire === 'openai' && onlyOnResponses(model)) return sendJson(res, 400, onlyOnResponsesError());
    if (wire === 'responses') {
      const reasoning = responses.check(session, token!, parsed.data as ResponsesRequest);
      if ('refused' in reasoning) return sendJson(res, 400, reasoning.refused);
      if (reasoning.carried) session.stats.reasoningCarried++;
    }
    const conversation =
      wire === 'openai'
        ? fromChatCompletionRequest(parsed.data as z.infer<typeof ChatCompletionRequestSchema>)
        : wire === 'anthropic'
          ? fromMessagesRequest(parsed.data as z.infer<typeof MessagesRequestSchema>)
          : fromResponsesRequest(parsed.data as ResponsesRequest);
    const inputTokens = countInputTokens(conversation.messages, conversation.tools);
    const window = session.faults.contextWindow;
    const overflows = decision.error === 'context_overflow' || (window !== undefined && inputTokens > window);
    // Anthropic may also end a completed answer at the window's edge instead of refusing the request.
    const stopsAtWindow = overflows && wire === 'anthropic' && session.faults.overflowAs === 'stop_reason';
    if (overflows && !stopsAtWindow) {
      record('context_overflow');
      const limit = window ?? Math.max(1, inputTokens - 1);
      const body = {
        openai: () => openaiOverflow(inputTokens, limit),
        anthropic: () => anthropicOverflow(inputTokens, limit),
        responses: responsesOverflow,
      }[wire];
      return sendJson(res, 400, body());
    }

    let turn: PolicyTurn;
    try {
      turn = session.policy.next(conversation.messages, conversation.tools, session.context);
    } catch (err) {
      // A policy bug is deterministic: retrying cannot help, so say so.
      log?.error({ err, policy: session.policy.name }, 'policy failed');
      return fail(res, wire, 500, `policy ${session.policy.name} failed: ${(err as Error).message}`, { 'x-should-retry': 'false' });
    }
    if (decision.malformedToolCall && turn.toolCalls?.length) {
      record('malformed_tool_call');
      turn = { ...turn, toolCalls: turn.toolCalls.map((c) => ({ ...c, arguments: corruptArguments(c.arguments) })) };
    }
    const parallel =
      decision.shape === 'parallel_calls'
        ? withParallelCall(
            turn.toolCalls ?? [],
            conversation.tools.map((t) => t.name),
          )
        : undefined;
    if (parallel) {
      record('parallel_calls');
      turn = { ...turn, toolCalls: parallel };
    }
    const ending = stopsAtWindow
      ? 'context_window'
      : decision.shape === 'cut_tool_call'
        ? 'cut'
        : decision.shape === 'refusal'
          ? 'refusal'
          : undefined;
    if (stopsAtWindow) record('context_overflow');
    else if (ending) record(decision.shape as 'cut_tool_call' | 'refusal');
    session.stats.answered++;

    const id = `${{ openai: 'chatcmpl', anthropic: 'msg', responses: 'resp' }[wire]}_${session.stats.key}_${request}`.replace(/[^A-Za-z0-9_-]/g, '_');
    const served: ServedTurn = {
      id,
      model,
      turn,
      callIds: (turn.toolCalls ?? []).map((_, i) => `${wire === 'anthropic' ? 'toolu' : 'call'}_${id}_${i}`),
      inputTokens,
      outputTokens: countOutputTokens(turn),
      ...servedCacheUsage(wire, session.cache, conversation, parsed.data, session.stats),
      ...(ending ? { ending } : {}),
    };
    const headers = { 'x-request-id': id, 'request-id': id };
    const stream = (body as { stream?: unknown }).stream === true;
    const created = Math.floor(Date.now() / 1000);

    const response = wire === 'responses' ? responses.answer(session, token!, served, created) : undefined;
    if (!stream) {
      return sendJson(res, 200, response ?? (wire === 'openai' ? toChatCompletion(served, created) : toMessage(served)), headers);
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const sse = startSse(res);
    if (response) {
      for (const e of toResponseEvents(response)) sse.send(e.data, e.event);
    } else if (wire === 'openai') {
      const includeUsage = (body as { stream_options?: { include_usage?: boolean } }).stream_options?.include_usage === true;
      for (const chunk of toChatCompletionChunks(served, created, includeUsage)) sse.send(chunk);
      sse.raw('data: [DONE]\n\n');
    } else {
      for (const e of toMessageEvents(served)) sse.send(e.data, e.event);
    }
    sse.end();
  }

  const server = createServer((req, res) => {
    load.requests++;
    load.inFlight++;
    load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
    let done = false;
    const finished = () => {
      if (!done) load.inFlight--;
      done = true;
    };
    res.once('close', finished);
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) log?.error({ err }, 'model server request failed');
      const wire: Wire = (req.url ?? '').includes('/messages') ? 'anthropic' : 'openai';
      if (!res.headersSent) fail(res, wire, status, (err as Error).message);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  log?.debug({ url }, 'model server listening');

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    openSession(policy, context, sessionOptions = {}) {
      if (closing) throw new Error('the model server is closed');
      const token = `ibs-${randomBytes(18).toString('base64url')}`;
      const key = sessionOptions.key ?? `s${opened}`;
      opened++;
      const faults = sessionOptions.faults ? parseFaults(sessionOptions.faults, `session ${key} faults`) : defaultFaults;
      sessions.set(token, {
        policy,
        context,
        faults,
        cache: newPromptCache(),
        stats: { key, requests: 0, answered: 0, reasoningCarried: 0, faults: [] },
      });
      return token;
    },
    closeSession(token) {
      sessions.delete(token);
    },
    stats() {
      return { ...load };
    },
    sessionStats(token) {
      const s = sessions.get(token)?.stats;
      return s && { ...s, faults: [...s.faults] };
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of pendingTimers) clearTimeout(timer);
        pendingTimers.clear();
        sessions.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
