import { z } from 'zod';
import type { ChatMessage, ReasoningBlock, ToolCall, ToolSpec } from '../../core/model.js';
import { cutHalf } from './faults.js';
import type { ServedTurn } from './openai-wire.js';

/** The part of a Messages request the server reads; everything else is accepted and ignored. */
const textBlock = z.looseObject({ type: z.literal('text'), text: z.string() });

const block = z.discriminatedUnion('type', [
  textBlock,
  z.looseObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }),
  z.looseObject({
    type: z.literal('tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
    is_error: z.boolean().optional(),
  }),
  z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }),
  z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.looseObject({ type: z.literal('image') }),
  z.looseObject({ type: z.literal('document') }),
]);

export const MessagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  // A `system` message among the others (the SDK's SystemMessageParam) applies from where it stands; Claude Code's
  // sub-agents send one.
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant', 'system']), content: z.union([z.string(), z.array(block)]) })).min(1),
  tools: z
    .array(z.looseObject({ name: z.string().min(1), description: z.string().optional(), input_schema: z.record(z.string(), z.unknown()) }))
    .optional(),
  stream: z.boolean().optional(),
});
export type MessagesRequest = z.infer<typeof MessagesRequestSchema>;

/** A tool_use input back to the raw JSON text: a string input is a malformed call kept verbatim. */
function argumentsText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

/** Wire request → the provider-neutral conversation a policy reads. */
export function fromMessagesRequest(req: MessagesRequest): { messages: ChatMessage[]; tools: ToolSpec[] } {
  const messages: ChatMessage[] = [];
  const system = typeof req.system === 'string' ? req.system : (req.system ?? []).map((b) => b.text).join('\n');
  if (system) messages.push({ role: 'system', content: system });
  const toolNames = new Map<string, string>();

  for (const m of req.messages) {
    if (typeof m.content === 'string') {
      messages.push({ role: m.role, content: m.content });
      continue;
    }
    if (m.role === 'system') {
      messages.push({ role: 'system', content: m.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n') });
      continue;
    }
    if (m.role === 'assistant') {
      const text: string[] = [];
      const toolCalls: ToolCall[] = [];
      const reasoning: ReasoningBlock[] = [];
      for (const b of m.content) {
        if (b.type === 'text') text.push(b.text);
        else if (b.type === 'tool_use') {
          toolNames.set(b.id, b.name);
          toolCalls.push({ id: b.id, name: b.name, arguments: argumentsText(b.input) });
        } else if (b.type === 'thinking') reasoning.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
        else if (b.type === 'redacted_thinking') reasoning.push({ type: 'redacted_thinking', data: b.data });
      }
      messages.push({
        role: 'assistant',
        content: text.join(''),
        ...(toolCalls.length ? { toolCalls } : {}),
        ...(reasoning.length ? { reasoning } : {}),
      });
      continue;
    }
    // A user turn holds tool results and text; keep their order, joining runs of text.
    let pending: string[] = [];
    const flushText = () => {
      if (pending.length) messages.push({ role: 'user', content: pending.join('') });
      pending = [];
    };
    for (const b of m.content) {
      if (b.type === 'text') pending.push(b.text);
      else if (b.type === 'tool_result') {
        flushText();
        const content = typeof b.content === 'string' ? b.content : (b.content ?? []).map((p) => p.text ?? '').join('');
        messages.push({ role: 'tool', toolCallId: b.tool_use_id, name: toolNames.get(b.tool_use_id) ?? '', content });
      }
    }
    flushText();
  }

  const tools: ToolSpec[] = (req.tools ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: t.input_schema,
  }));
  return { messages, tools };
}

/** Tool arguments as a tool_use `input`: the parsed object, or the raw text when it does not parse. */
function toolInput(args: string): unknown {
  try {
    const parsed = JSON.parse(args) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : args;
  } catch {
    return args;
  }
}

/** The calls as sent: none for a refusal or a full context window; a cut answer's last call has no input yet. */
function wireCalls(t: ServedTurn): { name: string; input: unknown }[] {
  if (t.ending === 'refusal' || t.ending === 'context_window') return [];
  const calls = t.turn.toolCalls ?? [];
  return calls.map((c, i) => ({ name: c.name, input: t.ending === 'cut' && i === calls.length - 1 ? {} : toolInput(c.arguments) }));
}

/** The text as sent: none for a refusal, the first half of an answer that stopped early. */
function wireText(t: ServedTurn): string {
  if (t.ending === 'refusal') return '';
  return t.ending === 'context_window' || (t.ending === 'cut' && !(t.turn.toolCalls ?? []).length) ? cutHalf(t.turn.text) : t.turn.text;
}

function contentBlocks(t: ServedTurn) {
  const calls = wireCalls(t);
  const text = wireText(t);
  const blocks: object[] = [];
  // A refusal comes with no content at all.
  if (t.ending !== 'refusal' && (text || calls.length === 0)) blocks.push({ type: 'text', text, citations: null });
  calls.forEach((c, i) => {
    blocks.push({ type: 'tool_use', id: t.callIds[i] ?? `toolu_${i}`, name: c.name, input: c.input, caller: { type: 'direct' } });
  });
  return blocks;
}

function stopReason(t: ServedTurn): string {
  if (t.ending === 'cut') return 'max_tokens';
  if (t.ending === 'refusal') return 'refusal';
  if (t.ending === 'context_window') return 'model_context_window_exceeded';
  return wireCalls(t).length ? 'tool_use' : 'end_turn';
}

function usage(t: ServedTurn) {
  const read = t.cacheReadTokens ?? 0;
  const write = t.cacheWriteTokens ?? 0;
  return {
    // Messages counts input_tokens apart from the cache's: only what follows the last breakpoint.
    input_tokens: t.inputTokens - read - write,
    output_tokens: t.outputTokens,
    output_tokens_details: { thinking_tokens: 0 },
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: write, ephemeral_1h_input_tokens: 0 },
    server_tool_use: null,
    service_tier: 'standard',
    inference_geo: null,
  };
}

export function toMessage(t: ServedTurn) {
  return {
    id: t.id,
    type: 'message',
    role: 'assistant',
    model: t.model,
    content: contentBlocks(t),
    stop_reason: stopReason(t),
    stop_sequence: null,
    container: null,
    usage: usage(t),
  };
}

/** The same answer as Messages stream events, in the order Anthropic sends them. */
export function toMessageEvents(t: ServedTurn): { event: string; data: object }[] {
  const events: { event: string; data: object }[] = [];
  const emit = (event: string, data: object) => events.push({ event, data: { type: event, ...data } });
  emit('message_start', {
    message: { ...toMessage(t), content: [], stop_reason: null, usage: { ...usage(t), output_tokens: 1 } },
  });
  const calls = wireCalls(t);
  const text = wireText(t);
  let index = 0;
  if (t.ending !== 'refusal' && (text || calls.length === 0)) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } });
    if (text) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    emit('content_block_stop', { index });
    index++;
  }
  calls.forEach((c, i) => {
    emit('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: t.callIds[i] ?? `toolu_${i}`, name: c.name, input: {}, caller: { type: 'direct' } },
    });
    emit('content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) },
    });
    emit('content_block_stop', { index });
    index++;
  });
  emit('message_delta', { delta: { stop_reason: stopReason(t), stop_sequence: null, container: null }, usage: { output_tokens: t.outputTokens } });
  emit('message_stop', {});
  return events;
}

/** Anthropic's overflow, as its API sends it. */
export function anthropicOverflow(tokens: number, window: number) {
  return { type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${window} maximum` } };
}

export function anthropicError(status: number, message: string) {
  const type =
    status === 529
      ? 'overloaded_error'
      : status === 429
        ? 'rate_limit_error'
        : status === 401
          ? 'authentication_error'
          : status === 404
            ? 'not_found_error'
            : status === 413
              ? 'request_too_large'
              : status >= 500
                ? 'api_error'
                : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
