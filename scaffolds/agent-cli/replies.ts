import type { Message } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { ResponseUsage } from 'openai/resources/responses/responses';
import type { Usage } from '../../core/model.js';
import { fromAnthropicUsage } from '../../models/anthropic-client.js';
import { fromOpenAIUsage } from '../../models/openai-client.js';
import { fromResponsesUsage } from '../../models/responses-client.js';
import { sseJson } from './sse.js';

/** The provider APIs an agent program may speak through the proxy. */
export type AgentApi = 'openai-chat' | 'openai-responses' | 'anthropic';

/** A model reply as one JSON value (a streamed one put back together), with what the harness reads from it. */
export interface ReadReply {
  reply: Record<string, unknown>;
  usage: Usage | undefined;
  /** The reply's text for the reader: what the model said, not its tool calls. */
  text: string;
  /** The message of an error event that broke a stream after its 200 (the answer is then incomplete). */
  streamError?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Reads a reply body of `api`, streamed (`text/event-stream`) or not. */
export function readReply(api: AgentApi, body: string, streamed: boolean): ReadReply {
  const reply = streamed ? reassemble(api, body) : parseObject(body);
  const streamError = streamed ? streamErrorOf(body) : undefined;
  return { reply, usage: usageOf(api, reply), text: textOf(api, reply), ...(streamError ? { streamError } : {}) };
}

/**
 * The error event a stream ended with, in any API's shape: Anthropic's `event: error` and the Responses API's `error`
 * event (`{type: 'error', error: {...}}` or `{type: 'error', message}`), its `response.failed`, or a Chat Completions
 * chunk holding only `error`.
 */
function streamErrorOf(body: string): string | undefined {
  for (const { event, json } of sseJson(body)) {
    const failed = json.type === 'response.failed' && isObject(json.response) ? json.response.error : undefined;
    const error = event === 'error' || json.type === 'error' ? (json.error ?? json) : (failed ?? (json.choices ? undefined : json.error));
    if (!isObject(error)) continue;
    const message = typeof error.message === 'string' ? error.message : JSON.stringify(error);
    const type = error.type === 'error' || error.type === undefined ? error.code : error.type;
    return typeof type === 'string' ? `${type}: ${message}` : message;
  }
  return undefined;
}

function parseObject(body: string): Json {
  try {
    const json = JSON.parse(body) as unknown;
    return isObject(json) ? json : { body };
  } catch {
    return { body };
  }
}

function reassemble(api: AgentApi, body: string): Json {
  const events = sseJson(body).map((e) => e.json);
  if (api === 'anthropic') return anthropicMessage(events);
  if (api === 'openai-responses') return ([...events].reverse().find((e) => isObject(e.response))?.response as Json) ?? {};
  return chatCompletion(events);
}

/** Anthropic's stream (message_start, content_block_*, message_delta) as the Message it describes. */
function anthropicMessage(events: Json[]): Json {
  let message: Json = { content: [] };
  const partialJson = new Map<number, string>();
  for (const e of events) {
    const index = typeof e.index === 'number' ? e.index : -1;
    const content = message.content as Json[];
    if (e.type === 'message_start' && isObject(e.message)) message = { ...e.message, content: [] };
    else if (e.type === 'content_block_start' && isObject(e.content_block)) content[index] = { ...e.content_block };
    else if (e.type === 'content_block_delta' && isObject(e.delta) && content[index]) applyDelta(content[index], e.delta, index, partialJson);
    else if (e.type === 'content_block_stop' && partialJson.has(index) && content[index]) {
      content[index].input = parseObject(partialJson.get(index) || '{}');
    } else if (e.type === 'message_delta') {
      if (isObject(e.delta)) message = { ...message, ...e.delta };
      if (isObject(e.usage)) message.usage = { ...(isObject(message.usage) ? message.usage : {}), ...e.usage };
    }
  }
  return message;
}

function applyDelta(block: Json, delta: Json, index: number, partialJson: Map<number, string>): void {
  if (delta.type === 'text_delta') block.text = `${block.text ?? ''}${delta.text ?? ''}`;
  else if (delta.type === 'thinking_delta') block.thinking = `${block.thinking ?? ''}${delta.thinking ?? ''}`;
  else if (delta.type === 'signature_delta') block.signature = delta.signature;
  else if (delta.type === 'input_json_delta') partialJson.set(index, `${partialJson.get(index) ?? ''}${delta.partial_json ?? ''}`);
}

/** OpenAI Chat Completions chunks as the completion they describe (first choice; usage from the chunk that has it). */
function chatCompletion(chunks: Json[]): Json {
  const message: { role: string; content: string; tool_calls: Json[] } = { role: 'assistant', content: '', tool_calls: [] };
  let finish: unknown = null;
  let usage: unknown;
  for (const chunk of chunks) {
    if (isObject(chunk.usage)) usage = chunk.usage;
    const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : undefined;
    if (!choice) continue;
    if (choice.finish_reason) finish = choice.finish_reason;
    const delta = isObject(choice.delta) ? choice.delta : {};
    if (typeof delta.content === 'string') message.content += delta.content;
    for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isObject) : []) mergeToolCall(message.tool_calls, call);
  }
  const first = chunks[0] ?? {};
  return { id: first.id, model: first.model, choices: [{ index: 0, message, finish_reason: finish }], ...(usage ? { usage } : {}) };
}

function mergeToolCall(calls: Json[], delta: Json): void {
  const index = typeof delta.index === 'number' ? delta.index : calls.length;
  const fn = isObject(delta.function) ? delta.function : {};
  const call = (calls[index] ??= { id: delta.id, type: 'function', function: { name: '', arguments: '' } });
  const target = call.function as Json;
  if (delta.id) call.id = delta.id;
  if (typeof fn.name === 'string') target.name = `${target.name}${fn.name}`;
  if (typeof fn.arguments === 'string') target.arguments = `${target.arguments}${fn.arguments}`;
}

function usageOf(api: AgentApi, reply: Json): Usage | undefined {
  if (!isObject(reply.usage)) return undefined;
  if (api === 'anthropic') return fromAnthropicUsage({ content: [], ...reply } as unknown as Message);
  if (api === 'openai-responses') return fromResponsesUsage(reply.usage as unknown as ResponseUsage);
  return fromOpenAIUsage(reply.usage as unknown as ChatCompletion['usage']);
}

function textOf(api: AgentApi, reply: Json): string {
  const texts: string[] = [];
  if (api === 'anthropic') {
    for (const b of Array.isArray(reply.content) ? reply.content.filter(isObject) : []) if (b.type === 'text') texts.push(String(b.text ?? ''));
  } else if (api === 'openai-responses') {
    for (const item of Array.isArray(reply.output) ? reply.output.filter(isObject) : []) {
      if (item.type !== 'message' || !Array.isArray(item.content)) continue;
      for (const part of item.content.filter(isObject)) if (part.type === 'output_text') texts.push(String(part.text ?? ''));
    }
  } else {
    const choice = Array.isArray(reply.choices) && isObject(reply.choices[0]) ? reply.choices[0] : {};
    const content = isObject(choice.message) ? choice.message.content : undefined;
    if (typeof content === 'string') texts.push(content);
  }
  return texts.join('\n');
}
