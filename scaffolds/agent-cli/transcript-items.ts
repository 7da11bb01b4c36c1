import type { TranscriptMessage } from '../../core/record.js';
import type { AgentApi } from './replies.js';

/**
 * One model request of an agent program, read into transcript messages: the model it named, the system prompt it
 * sent apart from the conversation (Codex's `instructions`, Anthropic's `system`), the conversation it resent, and
 * whether it offered tools (a main-thread request does; a program's small side calls mostly do not).
 */
export interface RequestView {
  model: string;
  system: string | undefined;
  items: TranscriptMessage[];
  hasTools: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** The text of a content value in any of the three APIs: a string, or parts (text, images, nested tool results). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isObject(part)) return JSON.stringify(part);
      if (typeof part.text === 'string') return part.text;
      if (typeof part.refusal === 'string') return `[refusal] ${part.refusal}`;
      if (String(part.type ?? '').includes('image')) return '[image]';
      if ('content' in part) return contentText(part.content);
      return JSON.stringify(part);
    })
    .join('\n\n');
}

export function readRequest(api: AgentApi, request: unknown): RequestView {
  const body = isObject(request) ? request : {};
  const model = str(body.model);
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  if (api === 'anthropic') {
    const system = body.system === undefined ? undefined : contentText(body.system);
    return { model, system, items: objects(body.messages).flatMap((m) => anthropicMessage(str(m.role), m.content)), hasTools };
  }
  if (api === 'openai-responses') {
    const system = typeof body.instructions === 'string' ? body.instructions : undefined;
    const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : objects(body.input);
    return { model, system, items: responsesItems(input), hasTools };
  }
  return { model, system: undefined, items: objects(body.messages).flatMap(chatMessage), hasTools };
}

/** The reply's messages: what the model said, its reasoning summaries and its tool calls. */
export function readReplyItems(api: AgentApi, reply: Record<string, unknown>): TranscriptMessage[] {
  if (api === 'anthropic') return anthropicMessage('assistant', reply.content);
  if (api === 'openai-responses') return responsesItems(objects(reply.output));
  const choice = objects(reply.choices)[0];
  return choice && isObject(choice.message) ? chatMessage({ ...choice.message, role: 'assistant' }) : [];
}

/** Appends a tool call to the assistant message just before it, or opens one: a turn's text and calls read as one. */
function pushCall(out: TranscriptMessage[], call: { id: string; name: string; arguments: string }): void {
  const last = out.at(-1);
  if (last?.role === 'assistant' && last.name === undefined) last.toolCalls = [...(last.toolCalls ?? []), call];
  else out.push({ role: 'assistant', content: '', toolCalls: [call] });
}

/** A Messages role as the transcript's: a `system` message may stand among the others (a sub-agent's). */
const anthropicSpeaker = (role: string) => (role === 'assistant' || role === 'system' ? role : 'user');

function anthropicMessage(role: string, content: unknown): TranscriptMessage[] {
  if (typeof content === 'string') return [{ role: anthropicSpeaker(role), content }];
  const out: TranscriptMessage[] = [];
  const pushText = (text: string) => {
    const last = out.at(-1);
    const speaker = anthropicSpeaker(role);
    if (last?.role === speaker && last.name === undefined && !last.toolCalls) last.content = last.content ? `${last.content}\n\n${text}` : text;
    else out.push({ role: speaker, content: text });
  };
  for (const block of objects(content)) {
    if (block.type === 'text') pushText(str(block.text));
    else if (block.type === 'thinking') out.push({ role: 'assistant', name: 'reasoning', content: str(block.thinking) });
    else if (block.type === 'redacted_thinking') out.push({ role: 'assistant', name: 'reasoning', content: '[redacted thinking]' });
    else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      pushCall(out, { id: str(block.id), name: str(block.name), arguments: JSON.stringify(block.input ?? {}) });
    } else if (block.type === 'tool_result') {
      out.push({
        role: 'tool',
        toolCallId: str(block.tool_use_id),
        content: contentText(block.content),
        ...(block.is_error ? { name: 'error' } : {}),
      });
    } else if (block.type === 'image' || block.type === 'document') pushText(`[${block.type}]`);
    else pushText(`[${str(block.type)}] ${JSON.stringify(block)}`);
  }
  return out;
}

function chatMessage(message: Json): TranscriptMessage[] {
  const role = str(message.role);
  if (role === 'tool') return [{ role: 'tool', toolCallId: str(message.tool_call_id), content: contentText(message.content) }];
  if (role === 'system' || role === 'developer')
    return [{ role: 'system', content: contentText(message.content), ...(role === 'developer' ? { name: 'developer' } : {}) }];
  if (role !== 'assistant') return [{ role: 'user', content: contentText(message.content) }];
  const out: TranscriptMessage[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === 'string' && reasoning) out.push({ role: 'assistant', name: 'reasoning', content: reasoning });
  const calls = objects(message.tool_calls).map((c) => {
    const fn = isObject(c.function) ? c.function : {};
    return { id: str(c.id), name: str(fn.name), arguments: str(fn.arguments) };
  });
  out.push({ role: 'assistant', content: contentText(message.content), ...(calls.length ? { toolCalls: calls } : {}) });
  return out;
}

/** Responses items, from a request's `input` or a reply's `output`. */
function responsesItems(items: Json[]): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  for (const item of items) {
    const type = item.type ?? (item.role ? 'message' : undefined);
    if (type === 'message') out.push(...responsesMessage(item));
    else if (type === 'reasoning') {
      // Only a summary (or plain reasoning text) is readable: encrypted reasoning alone shows nothing.
      const summary =
        objects(item.summary)
          .map((s) => str(s.text))
          .join('\n\n') || contentText(item.content);
      if (summary) out.push({ role: 'assistant', name: 'reasoning', content: summary });
    } else if (type === 'function_call') {
      const name = item.namespace ? `${str(item.namespace)}.${str(item.name)}` : str(item.name);
      pushCall(out, { id: str(item.call_id), name, arguments: str(item.arguments) });
    } else if (type === 'custom_tool_call') pushCall(out, { id: str(item.call_id), name: str(item.name), arguments: str(item.input) });
    else if (typeof type === 'string' && type.endsWith('_call')) {
      // Built-in tools (local_shell, web_search, tool_search, mcp, ...): the item's own fields are what was asked.
      const { type: _type, id, call_id, status: _status, ...asked } = item;
      pushCall(out, { id: str(call_id ?? id), name: type.slice(0, -'_call'.length), arguments: JSON.stringify(asked) });
    } else if (typeof type === 'string' && type.endsWith('_output')) {
      out.push({ role: 'tool', toolCallId: str(item.call_id ?? item.id), content: contentText(item.output ?? item.content ?? item) });
    } else out.push({ role: 'user', name: 'note', content: `[${str(type)}] ${JSON.stringify(item)}` });
  }
  return out;
}

function responsesMessage(item: Json): TranscriptMessage[] {
  const role = str(item.role);
  const content = contentText(item.content);
  if (role === 'assistant') return [{ role: 'assistant', content }];
  if (role === 'system' || role === 'developer') return [{ role: 'system', content, ...(role === 'developer' ? { name: 'developer' } : {}) }];
  return [{ role: 'user', content }];
}

/** What makes two messages the same turn when a program resends it: arguments may be re-serialised, ids are not. */
export function itemKey(m: TranscriptMessage): string {
  // Plain joins, not JSON: a long run compares every resent output on every request, and escaping it all is slow.
  const head = `${m.role}\u0000${m.name ?? ''}\u0000${m.toolCallId ?? ''}\u0000`;
  if (m.toolCalls?.length) return `${head}calls\u0000${m.toolCalls.map((c) => `${c.id}\u0001${c.name}`).join('\u0000')}`;
  return `${head}text\u0000${m.content.trim()}`;
}
