import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ChatMessage, ToolSpec } from '../../core/model.js';
import { onlyOnResponses } from '../../models/spec.js';
import type { Policy, PolicyContext, PolicyTurn } from '../policy.js';
import { anthropicError, anthropicOverflow, fromMessagesRequest, MessagesRequestSchema, toMessage, toMessageEvents } from './anthropic-wire.js';
import type { BatchDesk } from './batches.js';
import { servedCacheUsage, type PromptCache } from './cache.js';
import { type CliAnswer, type CliAnswerKind, type CliState, cliTurn, recognizeCli, sideTurn } from './cli-dialect.js';
import { corruptArguments, decideFault, withParallelCall, type FaultKind, type ResolvedFaultConfig } from './faults.js';
import { readJsonBody, sendJson, sessionToken, startSse } from './http.js';
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
  type ResponsesSessions,
  responsesOverflow,
  toResponse,
  toResponseEvents,
  type ResponsesRequest,
} from './responses-wire.js';
import { brokenStream, type SseFrame } from './stream-error.js';
import { countInputTokens, countOutputTokens } from './tokens.js';
import type { SessionStats } from './types.js';

/** One conversation the server holds: its policy, faults, prompt cache and stats. */
export interface Session {
  policy: Policy;
  context: PolicyContext;
  faults: ResolvedFaultConfig;
  /** What this session's prompts have left in the provider's cache. */
  cache: PromptCache;
  stats: SessionStats;
}

export type Wire = 'openai' | 'anthropic' | 'responses';

/** What the request handler reads of the running server. */
export interface ServerState {
  seed: number;
  sessions: Map<string, Session>;
  responses: ResponsesSessions;
  log: Logger | undefined;
  /** Waits `ms`, or less when the client gives up or the server closes. */
  delay(ms: number, res: ServerResponse): Promise<void>;
  closing(): boolean;
  /** The path the server is mounted under ('' for none): requests outside it are not found. */
  prefix: string;
  /** The batch APIs' batches and files. */
  batches: BatchDesk;
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

type Decision = ReturnType<typeof decideFault>;
type RecordFault = (kind: Exclude<FaultKind, 'none'>) => void;
type Conversation = { messages: ChatMessage[]; tools: ToolSpec[] };

function describeZodError(err: z.ZodError): string {
  const issue = err.issues[0];
  return `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid request'}`;
}

/** An error in the wire's own format. */
export const fail = (res: ServerResponse, wire: Wire, status: number, message: string, headers: Record<string, string> = {}) =>
  sendJson(res, status, wire === 'anthropic' ? anthropicError(status, message) : openaiError(status, message), headers);

function wireOf(path: string | undefined): Wire | undefined {
  if (path === '/v1/chat/completions' || path === '/chat/completions') return 'openai';
  if (path === '/v1/messages') return 'anthropic';
  if (path === '/v1/responses' || path === '/responses') return 'responses';
  return undefined;
}

/** The request's path below the prefix the server is mounted under (no query); undefined when it lies outside. */
function routePath(state: ServerState, req: IncomingMessage): string | undefined {
  const full = (req.url ?? '/').split('?')[0]!;
  return full.startsWith(`${state.prefix}/`) ? full.slice(state.prefix.length) : undefined;
}

/** Serves one request: the batch APIs' routes, or a model's turn (`answerTurn`). */
export async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = routePath(state, req);
  if (path === undefined) return fail(res, 'openai', 404, `no route for ${req.method} ${req.url}`);
  if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { ok: true });
  if (req.method === 'POST' && path === '/v1/messages/count_tokens') return countTokens(state, req, res);
  if (await state.batches.route(req, res, path)) return;
  return answerTurn(state, req, res, path);
}

/** Serves one request of a model's own routes: its session, injected faults, the request's parse, the policy's turn, the answer. */
async function answerTurn(state: ServerState, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const wire = wireOf(path);
  if (!wire) return fail(res, 'openai', 404, `no route for ${req.method} ${path}`);
  if (req.method !== 'POST') return fail(res, wire, 405, `${path} takes POST`);

  const token = sessionToken(req);
  const session = token ? state.sessions.get(token) : undefined;
  if (!session) return fail(res, wire, 401, 'unknown or closed session token');

  const body = await readJsonBody(req);
  const request = session.stats.requests++;
  if (body && typeof body === 'object') {
    session.stats.lastParams = Object.fromEntries(PARAM_FIELDS.filter((f) => f in body).map((f) => [f, (body as Record<string, unknown>)[f]]));
  }
  const decision = decideFault(session.faults, state.seed, session.stats.key, request);
  const record: RecordFault = (kind) => session.stats.faults.push({ request, kind });
  if (await answeredByFault(state, res, wire, session, decision, record)) return;

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
    const reasoning = state.responses.check(session, token!, parsed.data as ResponsesRequest);
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
    return sendJson(res, 400, overflowBody(wire, inputTokens, window));
  }

  const cli = recognizeCli(session, wire, req.headers, conversation.tools);
  const given = cli ? cliAnswer(state, res, wire, session, cli, conversation) : policyTurn(state, res, wire, session, conversation, decision, record);
  if (!given) return;
  const { turn, kind } = 'kind' in given ? given : { turn: given, kind: 'policy' as const };
  const ending = stopsAtWindow ? 'context_window' : decision.shape === 'cut_tool_call' ? 'cut' : decision.shape === 'refusal' ? 'refusal' : undefined;
  if (stopsAtWindow) record('context_overflow');
  else if (ending) record(decision.shape as 'cut_tool_call' | 'refusal');
  countAnswer(session.stats, kind);

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
  if (cli && 'remember' in given) given.remember(served.callIds);
  const created = Math.floor(Date.now() / 1000);
  const response =
    wire !== 'responses' ? undefined : kind === 'side' ? sideResponse(served, created) : state.responses.answer(session, token!, served, created);
  if (decision.error === 'stream_error') record('stream_error');
  answer(res, { wire, served, body, created, response, broken: decision.error === 'stream_error' });
}

/** The provider's refusal of a prompt longer than the context window (the window itself when none is set). */
function overflowBody(wire: Wire, inputTokens: number, window: number | undefined): object {
  const limit = window ?? Math.max(1, inputTokens - 1);
  if (wire === 'openai') return openaiOverflow(inputTokens, limit);
  return wire === 'anthropic' ? anthropicOverflow(inputTokens, limit) : responsesOverflow();
}

/** `answered` counts the policy's turns; a CLI's side requests are counted apart, its preparatory calls in cli-dialect.ts. */
function countAnswer(stats: SessionStats, kind: CliAnswerKind): void {
  if (kind === 'policy') stats.answered++;
  else if (kind === 'side' && stats.cli) stats.cli.sideAnswers++;
}

/** Answers the request with the fault drawn for it, if the fault is an answer of its own; true when it did. */
async function answeredByFault(
  state: ServerState,
  res: ServerResponse,
  wire: Wire,
  session: Session,
  decision: Decision,
  record: RecordFault,
): Promise<boolean> {
  if (decision.slow) {
    record('slow');
    await state.delay(session.faults.slowMs, res);
    if (res.destroyed || state.closing()) return true;
  }
  if (decision.error === 'rate_limit') {
    record('rate_limit');
    const seconds = Math.ceil(session.faults.retryAfterSeconds);
    fail(res, wire, 429, 'rate limit reached (injected)', { 'retry-after': String(seconds) });
    return true;
  }
  if (decision.error === 'server_error') {
    record('server_error');
    fail(res, wire, 500, 'internal server error (injected)');
    return true;
  }
  if (decision.error === 'gateway_error') {
    record('gateway_error');
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n');
    return true;
  }
  if (decision.error === 'overloaded') {
    record('overloaded');
    if (wire === 'anthropic') fail(res, wire, 529, 'Overloaded');
    else sendJson(res, 503, openaiOverloaded());
    return true;
  }
  return false;
}

/** The policy's next turn, shaped by the faults drawn for it; undefined when the policy failed (answered with a 500). */
function policyTurn(
  state: ServerState,
  res: ServerResponse,
  wire: Wire,
  session: Session,
  conversation: Conversation,
  decision: Decision,
  record: RecordFault,
): PolicyTurn | undefined {
  let turn: PolicyTurn;
  try {
    turn = session.policy.next(conversation.messages, conversation.tools, session.context);
  } catch (err) {
    // A policy bug is deterministic: retrying cannot help, so say so.
    state.log?.error({ err, policy: session.policy.name }, 'policy failed');
    fail(res, wire, 500, `policy ${session.policy.name} failed: ${(err as Error).message}`, { 'x-should-retry': 'false' });
    return undefined;
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
  return turn;
}

/** Sends the served turn in the wire's format: one body, or a stream of events when the request asked for one. */
function answer(
  res: ServerResponse,
  {
    wire,
    served,
    body,
    created,
    response,
    broken,
  }: { wire: Wire; served: ServedTurn; body: unknown; created: number; response?: ReturnType<ResponsesSessions['answer']>; broken: boolean },
): void {
  const headers = { 'x-request-id': served.id, 'request-id': served.id };
  const stream = (body as { stream?: unknown }).stream === true;
  if (!stream) {
    sendJson(res, 200, response ?? (wire === 'openai' ? toChatCompletion(served, created) : toMessage(served)), headers);
    return;
  }
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const sse = startSse(res);
  const includeUsage = (body as { stream_options?: { include_usage?: boolean } }).stream_options?.include_usage === true;
  const frames: SseFrame[] = response
    ? toResponseEvents(response)
    : wire === 'openai'
      ? toChatCompletionChunks(served, created, includeUsage).map((data) => ({ data: data as object }))
      : toMessageEvents(served);
  for (const e of broken ? brokenStream(wire, frames) : frames) sse.send(e.data, e.event);
  if (wire === 'openai' && !broken) sse.raw('data: [DONE]\n\n');
  sse.end();
}

/** A CLI request's answer: a side request's short text, or the policy's move in the CLI's tools (a 500 when it failed). */
function cliAnswer(
  state: ServerState,
  res: ServerResponse,
  wire: Wire,
  session: Session,
  cli: { state: CliState; side: boolean },
  conversation: Conversation,
): Pick<CliAnswer, 'turn' | 'kind' | 'remember'> | undefined {
  if (cli.side) return { turn: sideTurn(conversation.messages), kind: 'side', remember: () => {} };
  try {
    return cliTurn(session, cli.state, conversation.messages);
  } catch (err) {
    state.log?.error({ err, policy: session.policy.name }, 'policy failed');
    fail(res, wire, 500, `policy ${session.policy.name} failed: ${(err as Error).message}`, { 'x-should-retry': 'false' });
    return undefined;
  }
}

/** A side request's Response: no reasoning item, so the main conversation's reasoning chain stays as it was. */
function sideResponse(served: ServedTurn, created: number) {
  const response = toResponse(served, created, { id: `rs_${served.id}`, encryptedContent: '' });
  return { ...response, output: response.output.filter((o) => o.type !== 'reasoning') };
}

/** Anthropic's token count of a Messages request (Claude Code asks before long prompts); it is no turn of anyone's. */
async function countTokens(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const token = sessionToken(req);
  if (!token || !state.sessions.has(token)) return fail(res, 'anthropic', 401, 'unknown or closed session token');
  const body = await readJsonBody(req);
  // The count needs no max_tokens, which the Messages schema requires.
  const parsed = MessagesRequestSchema.safeParse({ max_tokens: 1, ...(body as object) });
  if (!parsed.success) return fail(res, 'anthropic', 400, describeZodError(parsed.error));
  const { messages, tools } = fromMessagesRequest(parsed.data);
  sendJson(res, 200, { input_tokens: countInputTokens(messages, tools) });
}
