import { z } from 'zod';
import type { ChatMessage, ToolCall, ToolSpec } from '../../core/model.js';
import type { PolicyTurn } from '../policies/types.js';

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
  /** Tool-call ids, one per call in `turn.toolCalls`. */
  callIds: string[];
  inputTokens: number;
  outputTokens: number;
}

function usage(t: ServedTurn) {
  return {
    prompt_tokens: t.inputTokens,
    completion_tokens: t.outputTokens,
    total_tokens: t.inputTokens + t.outputTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function wireToolCalls(t: ServedTurn) {
  return (t.turn.toolCalls ?? []).map((c, i) => ({
    id: t.callIds[i] ?? `call_${i}`,
    type: 'function' as const,
    function: { name: c.name, arguments: c.arguments },
  }));
}

const finishReason = (t: ServedTurn) => ((t.turn.toolCalls ?? []).length ? 'tool_calls' : 'stop');

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
          content: t.turn.text,
          refusal: null,
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
  if (t.turn.text) chunks.push(chunk({ content: t.turn.text }));
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
