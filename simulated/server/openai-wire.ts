import { z } from 'zod';
import type { ChatMessage, ToolCall, ToolSpec } from '../../core/model.js';
import type { PolicyTurn } from '../policy.js';
import { cutHalf } from './faults.js';

/** The part of a Chat Completions request the server reads; everything else is accepted and ignored. */
const textContent = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() })), z.null()]);

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const messageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.enum(['system', 'developer']), content: textContent }),
  z.looseObject({ role: z.literal('user'), content: textContent }),
  z.looseObject({
    role: z.literal('assistant'),
    content: textContent.optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.looseObject({ role: z.literal('tool'), tool_call_id: z.string(), content: textContent }),
]);

export const ChatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  tools: z
    .array(
      z.looseObject({
        type: z.literal('function'),
        function: z.looseObject({
          name: z.string().min(1),
          description: z.string().optional(),
          parameters: z.record(z.string(), z.unknown()).optional(),
        }),
      }),
    )
    .optional(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  // OpenAI refuses a longer key, so a client that sends one must fail here as it would there.
  prompt_cache_key: z.string().max(64).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

function flatten(content: z.infer<typeof textContent> | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => part.text ?? '').join('');
}

/** Wire request → the provider-neutral conversation a policy reads. */
export function fromChatCompletionRequest(req: ChatCompletionRequest): { messages: ChatMessage[]; tools: ToolSpec[] } {
  const toolNames = new Map<string, string>();
  const messages: ChatMessage[] = req.messages.map((m): ChatMessage => {
    switch (m.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: flatten(m.content) };
      case 'user':
        return { role: 'user', content: flatten(m.content) };
      case 'assistant': {
        const toolCalls: ToolCall[] = (m.tool_calls ?? []).map((c) => {
          toolNames.set(c.id, c.function.name);
          return { id: c.id, name: c.function.name, arguments: c.function.arguments };
        });
        return { role: 'assistant', content: flatten(m.content), ...(toolCalls.length ? { toolCalls } : {}) };
      }
      case 'tool':
        // Chat Completions tool messages carry no name: recover it from the call they answer.
        return { role: 'tool', toolCallId: m.tool_call_id, name: toolNames.get(m.tool_call_id) ?? '', content: flatten(m.content) };
      default:
        throw new Error(`a message of an unknown role: ${JSON.stringify(m)}`);
    }
  });
  const tools: ToolSpec[] = (req.tools ?? []).map((t) => ({
    name: t.function.name,
    description: t.function.description ?? '',
    parameters: t.function.parameters ?? { type: 'object', properties: {} },
  }));
  return { messages, tools };
}

export interface ServedTurn {
  id: string;
  model: string;
  turn: PolicyTurn;
  /**
   * How the answer ends when not as the policy wrote it: cut at max_tokens, refused, or stopped by a full context
   * window (Anthropic's stop reason; OpenAI answers an overflow with an error instead).
   */
  ending?: 'cut' | 'refusal' | 'context_window';
  /** Tool-call ids, one per call in `turn.toolCalls`. */
  callIds: string[];
  inputTokens: number;
  outputTokens: number;
  /** The parts of `inputTokens` read from and written to the session's prompt cache (see cache.ts). */
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

function usage(t: ServedTurn) {
  return {
    prompt_tokens: t.inputTokens,
    completion_tokens: t.outputTokens,
    total_tokens: t.inputTokens + t.outputTokens,
    prompt_tokens_details: { cached_tokens: t.cacheReadTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

/** What a refusing model says in place of an answer (OpenAI's `refusal` field). */
export const REFUSAL_TEXT = "I'm sorry, but I can't help with that request.";

function wireToolCalls(t: ServedTurn) {
  if (t.ending === 'refusal') return [];
  const calls = t.turn.toolCalls ?? [];
  return calls.map((c, i) => ({
    id: t.callIds[i] ?? `call_${i}`,
    type: 'function' as const,
    // An answer cut at max_tokens stops inside its last call's JSON.
    function: { name: c.name, arguments: t.ending === 'cut' && i === calls.length - 1 ? cutHalf(c.arguments) : c.arguments },
  }));
}

/** The text as sent: null for a refusal, the first half of a cut answer that makes no call. */
function wireText(t: ServedTurn): string | null {
  if (t.ending === 'refusal') return null;
  return t.ending === 'cut' && !(t.turn.toolCalls ?? []).length ? cutHalf(t.turn.text) : t.turn.text;
}

function finishReason(t: ServedTurn) {
  if (t.ending === 'cut') return 'length';
  return wireToolCalls(t).length ? 'tool_calls' : 'stop';
}

export function toChatCompletion(t: ServedTurn, created: number) {
  const toolCalls = wireToolCalls(t);
  return {
    id: t.id,
    object: 'chat.completion',
    created,
    model: t.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: wireText(t),
          refusal: t.ending === 'refusal' ? REFUSAL_TEXT : null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReason(t),
        logprobs: null,
      },
    ],
    usage: usage(t),
  };
}

/** The same answer as `chat.completion.chunk` frames, in the order OpenAI streams them. */
export function toChatCompletionChunks(t: ServedTurn, created: number, includeUsage: boolean): unknown[] {
  const base = { id: t.id, object: 'chat.completion.chunk', created, model: t.model };
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  const text = wireText(t);
  if (text) chunks.push(chunk({ content: text }));
  if (t.ending === 'refusal') chunks.push(chunk({ refusal: REFUSAL_TEXT }));
  wireToolCalls(t).forEach((c, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }));
    if (c.function.arguments) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] }));
  });
  chunks.push(chunk({}, finishReason(t)));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: usage(t) });
  return chunks;
}

export function openaiError(status: number, message: string) {
  const type = status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: type } };
}

/** OpenAI's overflow, as its API sends it. */
export function openaiOverflow(tokens: number, window: number) {
  return {
    error: {
      message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  };
}

/** OpenAI's answer when its engine is overloaded (503). */
export function openaiOverloaded() {
  return { error: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', param: null, code: null } };
}
