import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ChatMessage, ReasoningBlock, ToolCall, ToolSpec } from '../../core/model.js';
import { cutHalf } from './faults.js';
import { REFUSAL_TEXT, type ServedTurn } from './openai-wire.js';

/**
 * OpenAI's Responses API (`POST /v1/responses`) on the local model server. The request's items become the neutral
 * conversation the policies read; the answer is a Response object as OpenAI documents it, with a reasoning item in
 * front of every answer. Under `store: false` nothing is kept at a provider, so the next request must carry that item
 * back with its `encrypted_content`: here that content is an HMAC of the session, the item and a secret of the server,
 * and a request that continues an answer without its reasoning is refused with a 400, so a client that drops
 * reasoning fails loudly.
 */

const text = z.string();
const contentParts = z.array(z.looseObject({ type: z.string(), text: z.string().optional(), refusal: z.string().optional() }));

const messageItem = z.looseObject({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([text, contentParts]),
});

const inputItem = z.preprocess(
  // An "easy" input message may leave out its type.
  (item) => (item && typeof item === 'object' && !('type' in item) && 'role' in item ? { ...item, type: 'message' } : item),
  z.discriminatedUnion('type', [
    messageItem,
    z.looseObject({ type: z.literal('function_call'), call_id: z.string().min(1), name: z.string().min(1), arguments: z.string() }),
    z.looseObject({ type: z.literal('function_call_output'), call_id: z.string().min(1), output: z.union([text, contentParts]) }),
    z.looseObject({
      type: z.literal('reasoning'),
      id: z.string().min(1),
      encrypted_content: z.string().nullish(),
      summary: z.array(z.looseObject({ type: z.string(), text: z.string() })),
    }),
    z.looseObject({ type: z.literal('item_reference'), id: z.string().min(1) }),
  ]),
);

const functionTool = z.looseObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
});
type FunctionTool = z.infer<typeof functionTool>;

/** The part of a Responses request the server reads; everything else is accepted and ignored. */
export const ResponsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  // A text input is one user message.
  input: z.preprocess((v) => (typeof v === 'string' ? [{ type: 'message', role: 'user', content: v }] : v), z.array(inputItem).min(1)),
  instructions: z.string().nullish(),
  // Function tools reach the policy; the API's other tool kinds (web_search, custom, namespace, mcp, ...) are
  // accepted as OpenAI accepts them, and a scripted policy never calls them.
  tools: z
    .array(
      z.union([
        functionTool,
        z.looseObject({
          type: z
            .string()
            .min(1)
            .refine((t) => t !== 'function', 'a function tool needs a name'),
        }),
      ]),
    )
    .optional(),
  store: z.boolean().nullish(),
  stream: z.boolean().nullish(),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;

function flatten(content: string | z.infer<typeof contentParts>): string {
  if (typeof content === 'string') return content;
  return content.map((part) => part.text ?? part.refusal ?? '').join('');
}

/**
 * Wire request → the provider-neutral conversation a policy reads. The items of one model turn (its reasoning, its
 * message, its function calls) make one assistant message, as in the other wire formats.
 */
export function fromResponsesRequest(req: ResponsesRequest): { messages: ChatMessage[]; tools: ToolSpec[] } {
  const messages: ChatMessage[] = [];
  if (req.instructions) messages.push({ role: 'system', content: req.instructions });
  const toolNames = new Map<string, string>();
  // The assistant turn the items being read belong to, until a user, system or tool item ends it.
  let turn: Extract<ChatMessage, { role: 'assistant' }> | undefined;
  const openTurn = () => {
    turn = { role: 'assistant', content: '' };
    messages.push(turn);
    return turn;
  };
  const push = (m: ChatMessage) => {
    turn = undefined;
    messages.push(m);
  };
  for (const item of req.input) {
    switch (item.type) {
      case 'message': {
        const content = flatten(item.content);
        if (item.role !== 'assistant') push({ role: item.role === 'user' ? 'user' : 'system', content });
        // A turn's message follows its reasoning; a second message is a turn of its own.
        else if (turn && !turn.content && !turn.toolCalls?.length) turn.content = content;
        else openTurn().content = content;
        break;
      }
      case 'reasoning': {
        // Reasoning opens a turn: what the model thought comes before what it said or called.
        const current = turn && !turn.content && !turn.toolCalls?.length ? turn : openTurn();
        const block: ReasoningBlock = {
          type: 'openai_reasoning',
          id: item.id,
          encryptedContent: item.encrypted_content ?? '',
          summary: item.summary.map((s) => s.text),
        };
        current.reasoning = [...(current.reasoning ?? []), block];
        break;
      }
      case 'function_call': {
        const current = turn ?? openTurn();
        toolNames.set(item.call_id, item.name);
        const call: ToolCall = { id: item.call_id, name: item.name, arguments: item.arguments };
        current.toolCalls = [...(current.toolCalls ?? []), call];
        break;
      }
      case 'function_call_output':
        push({ role: 'tool', toolCallId: item.call_id, name: toolNames.get(item.call_id) ?? '', content: flatten(item.output) });
        break;
      case 'item_reference':
        // Refused before the conversation is read (see ResponsesSessions.check).
        break;
    }
  }
  const functions = (req.tools ?? []).filter((t): t is FunctionTool => t.type === 'function');
  const tools: ToolSpec[] = functions.map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: t.parameters ?? { type: 'object', properties: {} },
  }));
  return { messages, tools };
}

/** An error in OpenAI's body format, with its `param` and `code`. */
function error(message: string, param: string | null, code: string | null, type = 'invalid_request_error') {
  return { error: { message, type, param, code } };
}

/** OpenAI's answer to a Responses-only model (every codex model) on Chat Completions. */
export function onlyOnResponsesError() {
  return error('This model is only supported in v1/responses and not in v1/chat/completions.', 'model', null);
}

/** OpenAI's overflow, as the Responses API sends it. */
export function responsesOverflow() {
  return error('Your input exceeds the context window of this model. Please adjust your input and try again.', 'input', 'context_length_exceeded');
}

/** What the model "thinks" on every turn, in tokens: billed as output, counted in `reasoning_tokens`. */
export const REASONING_TOKENS = 16;

/** A served turn, with how it ends when not as the policy wrote it (cut at max_output_tokens, refused). */
export type ServedResponse = ServedTurn;

/** What a session's latest answer was, to check that the next request carries its reasoning back. */
interface Answered {
  responseId: string;
  reasoningId: string;
  encryptedContent: string;
  callIds: string[];
  text: string;
}

interface SessionState {
  last?: Answered;
}

/**
 * The Responses route's memory of each session: the reasoning the last answer carried (checked on the next request).
 * Sessions are the server's own objects, held weakly.
 */
export class ResponsesSessions {
  private readonly secret = randomBytes(32);
  private readonly state = new WeakMap<object, SessionState>();

  private of(session: object): SessionState {
    let s = this.state.get(session);
    if (!s) {
      s = {};
      this.state.set(session, s);
    }
    return s;
  }

  /** The opaque content of a reasoning item: only this server makes it, for this session (its token) and this item. */
  private seal(token: string, reasoningId: string): string {
    return createHmac('sha256', this.secret).update(`${token}\0${reasoningId}`).digest('base64url');
  }

  private verifies(token: string, reasoningId: string, content: string): boolean {
    const want = Buffer.from(this.seal(token, reasoningId));
    const got = Buffer.from(content);
    return got.length === want.length && timingSafeEqual(got, want);
  }

  /**
   * Checks a request's reasoning before it is answered: every reasoning item must be one this server made for this
   * session, and under `store: false` a request that continues the last answer (it holds that answer's calls, their
   * outputs or its text) must carry that answer's reasoning item with the same encrypted content. Returns the error to
   * answer with (status 400, OpenAI's body), or whether the last answer's reasoning came back.
   */
  check(session: object, token: string, req: ResponsesRequest): { refused: object } | { carried: boolean } {
    const items = req.input;
    const stateless = req.store === false;
    for (const [i, item] of items.entries()) {
      // This server keeps no items: a reference, or reasoning without its content, names something it does not have.
      if (item.type === 'item_reference' || (item.type === 'reasoning' && !item.encrypted_content && stateless)) {
        const why = stateless
          ? ' Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.'
          : '';
        return { refused: error(`Item with id '${item.id}' not found.${why}`, `input[${i}]`, null) };
      }
      if (item.type === 'reasoning' && item.encrypted_content && !this.verifies(token, item.id, item.encrypted_content)) {
        return { refused: error(`The encrypted content for item ${item.id} could not be verified.`, `input[${i}]`, 'invalid_encrypted_content') };
      }
    }
    const last = this.of(session).last;
    if (!last) return { carried: false };
    const carried = items.some((it) => it.type === 'reasoning' && it.id === last.reasoningId && it.encrypted_content === last.encryptedContent);
    const continues = items.some(
      (it) =>
        ((it.type === 'function_call' || it.type === 'function_call_output') && last.callIds.includes(it.call_id)) ||
        (it.type === 'message' && it.role === 'assistant' && last.text !== '' && flatten(it.content) === last.text),
    );
    if (stateless && continues && !carried) {
      return {
        refused: error(
          `The input continues response ${last.responseId} but leaves out its reasoning item ${last.reasoningId}: with \`store\` set to false, send reasoning items back with their encrypted_content (include "reasoning.encrypted_content").`,
          'input',
          'missing_reasoning_item',
        ),
      };
    }
    return { carried };
  }

  /** The Response object for a served turn, remembered as the session's last answer. */
  answer(session: object, token: string, t: ServedResponse, created: number) {
    const state = this.of(session);
    const reasoningId = `rs_${t.id}`;
    const encryptedContent = this.seal(token, reasoningId);
    const response = toResponse(t, created, { id: reasoningId, encryptedContent });
    state.last = {
      responseId: t.id,
      reasoningId,
      encryptedContent,
      callIds: response.output.flatMap((o) => (o.type === 'function_call' ? [o.call_id] : [])),
      text: response.output.flatMap((o) => (o.type === 'message' ? o.content.map((c) => ('text' in c ? c.text : '')) : [])).join(''),
    };
    return response;
  }
}

type OutputItem =
  | { type: 'reasoning'; id: string; summary: never[]; encrypted_content: string; status?: string }
  | {
      type: 'message';
      id: string;
      role: 'assistant';
      status: string;
      content: ({ type: 'output_text'; text: string; annotations: never[] } | { type: 'refusal'; refusal: string })[];
    }
  | { type: 'function_call'; id: string; call_id: string; name: string; arguments: string; status: string };

/** A Response object as OpenAI documents it: the reasoning item, then the message and function calls. */
export function toResponse(t: ServedResponse, created: number, reasoning: { id: string; encryptedContent: string }) {
  const cut = t.ending === 'cut';
  const calls = t.ending === 'refusal' ? [] : (t.turn.toolCalls ?? []);
  const output: OutputItem[] = [{ type: 'reasoning', id: reasoning.id, summary: [], encrypted_content: reasoning.encryptedContent }];
  const textOut = cut && calls.length === 0 ? cutHalf(t.turn.text) : t.turn.text;
  if (t.ending === 'refusal') {
    output.push({
      type: 'message',
      id: `msg_${t.id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'refusal', refusal: REFUSAL_TEXT }],
    });
  } else if (textOut || calls.length === 0) {
    output.push({
      type: 'message',
      id: `msg_${t.id}`,
      role: 'assistant',
      status: cut && calls.length === 0 ? 'incomplete' : 'completed',
      content: [{ type: 'output_text', text: textOut, annotations: [] }],
    });
  }
  calls.forEach((c, i) => {
    // An answer cut at max_output_tokens stops inside its last call's JSON.
    const last = cut && i === calls.length - 1;
    output.push({
      type: 'function_call',
      id: `fc_${t.id}_${i}`,
      call_id: t.callIds[i] ?? `call_${t.id}_${i}`,
      name: c.name,
      arguments: last ? cutHalf(c.arguments) : c.arguments,
      status: last ? 'incomplete' : 'completed',
    });
  });
  const outputTokens = t.outputTokens + REASONING_TOKENS;
  return {
    id: t.id,
    object: 'response' as const,
    created_at: created,
    status: cut ? 'incomplete' : 'completed',
    completed_at: cut ? null : created,
    error: null,
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    instructions: null,
    max_output_tokens: null,
    metadata: {},
    model: t.model,
    output,
    parallel_tool_calls: true,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: {
      input_tokens: t.inputTokens,
      input_tokens_details: { cached_tokens: t.cacheReadTokens ?? 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: REASONING_TOKENS },
      total_tokens: t.inputTokens + outputTokens,
    },
  };
}

/** The same answer as Responses stream events, in the order OpenAI sends them (each named by its `type`). */
export function toResponseEvents(response: ReturnType<typeof toResponse>): { event: string; data: object }[] {
  const events: { event: string; data: object }[] = [];
  const emit = (type: string, data: object) => events.push({ event: type, data: { type, sequence_number: events.length, ...data } });
  const pending = { ...response, status: 'in_progress', completed_at: null, incomplete_details: null, output: [], usage: null };
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  response.output.forEach((item, output_index) => {
    if (item.type === 'message') {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      item.content.forEach((part, content_index) => {
        const ids = { item_id: item.id, output_index, content_index };
        if (part.type === 'output_text') {
          emit('response.content_part.added', { ...ids, part: { ...part, text: '' } });
          if (part.text) emit('response.output_text.delta', { ...ids, delta: part.text, logprobs: [] });
          emit('response.output_text.done', { ...ids, text: part.text, logprobs: [] });
        } else {
          emit('response.content_part.added', { ...ids, part: { ...part, refusal: '' } });
          emit('response.refusal.delta', { ...ids, delta: part.refusal });
          emit('response.refusal.done', { ...ids, refusal: part.refusal });
        }
        emit('response.content_part.done', { ...ids, part });
      });
    } else if (item.type === 'function_call') {
      emit('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      if (item.arguments) emit('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
      emit('response.function_call_arguments.done', { item_id: item.id, output_index, name: item.name, arguments: item.arguments });
    } else {
      emit('response.output_item.added', { output_index, item: { ...item, encrypted_content: undefined } });
    }
    emit('response.output_item.done', { output_index, item });
  });
  emit(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
  return events;
}
