import { createHash } from 'node:crypto';
import { z } from 'zod';
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { callModel, mergeOptions, type ClientSettings } from './call.js';
import { EmptyResponseError } from './retry.js';
import type {
  ChatMessage,
  Generation,
  GenerateOptions,
  ModelBatches,
  ModelClient,
  ToolCall,
  ToolSpec,
  Usage,
  ModelApi,
  ModelEndpoint,
} from '../core/model.js';
import { sdkEndpoint } from './endpoint.js';
import { OpenAIBatches } from './openai-batches.js';
import type { Billing } from './prices.js';

export function toOpenAIMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant':
        return m.toolCalls?.length
          ? {
              role: 'assistant',
              content: m.content || null,
              tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
            }
          : { role: 'assistant', content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      default:
        return unknownRole(m);
    }
  });
}

function unknownRole(m: never): never {
  throw new Error(`a message of an unknown role: ${JSON.stringify(m)}`);
}

export function toOpenAITools(tools: ToolSpec[]): ChatCompletionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** Usage as reported; undefined when the server sent none (some OpenAI-compatible servers do not). */
export function fromOpenAIUsage(usage: ChatCompletion['usage']): Usage | undefined {
  if (!usage) return undefined;
  return {
    // prompt_tokens already includes the cached ones.
    inputTokens: usage.prompt_tokens,
    cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    // Only models with explicit cache breakpoints report writes; the others write without saying so.
    cacheWriteTokens: usage.prompt_tokens_details?.cache_write_tokens ?? 0,
    // completion_tokens already includes the reasoning tokens.
    outputTokens: usage.completion_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/**
 * Some OpenAI-compatible servers send arguments as an object, or none at all; the neutral form is
 * always the JSON text.
 */
function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  return args === undefined || args === null ? '' : JSON.stringify(args);
}

export interface OpenAIClientSettings extends ClientSettings {
  /** The APIs of the same provider an agent program may reach this model through (default: this client's own). */
  apis?: readonly ModelApi[];
  sdk: OpenAI;
  /** `max_tokens` for servers that predate `max_completion_tokens` (most OpenAI-compatible ones). */
  legacyMaxTokens: boolean;
  /** The server has no Batch API (OpenAI-compatible servers mostly do not). */
  noBatchApi?: boolean;
  /** Send the call's cacheKey as `prompt_cache_key` (OpenAI's own API; other servers may refuse the field). */
  promptCacheKey: boolean;
}

/** A completion in a batch's output, checked as far as it is read: the rest is read as a plain answer is. */
const CompletionBody = z.looseObject({ id: z.string(), choices: z.array(z.looseObject({ message: z.looseObject({}) })).min(1) });

/** OpenAI refuses a `prompt_cache_key` over 64 characters. */
const MAX_CACHE_KEY = 64;

/** The key as sent: as given when it fits, else a digest of it (the same key always gives the same digest). */
export function promptCacheKey(key: string): string {
  if (key.length <= MAX_CACHE_KEY) return key;
  return `ib-${createHash('sha256').update(key).digest('hex').slice(0, 48)}`;
}

/** Chat Completions with function tools and reasoning effort, for OpenAI and OpenAI-compatible servers. */
export class OpenAIChatClient implements ModelClient {
  readonly name: string;

  constructor(private readonly settings: OpenAIClientSettings) {
    this.name = settings.name;
    this.batches = settings.noBatchApi
      ? undefined
      : new OpenAIBatches(settings, {
          endpoint: '/v1/chat/completions',
          requestBody: (messages, tools, o) => this.requestBody(messages, tools, o),
          readBody: (body, billing) => this.generation(CompletionBody.parse(body) as unknown as ChatCompletion, 0, billing),
        });
  }

  endpoint(api: ModelApi): ModelEndpoint | undefined {
    return sdkEndpoint(this.settings.sdk, this.settings.model, this.settings.apis ?? ['openai-chat'], api);
  }

  /** OpenAI's Batch API; none on an OpenAI-compatible server. */
  readonly batches: ModelBatches | undefined;

  /** The request body of a call, as sent alone or in a batch. */
  requestBody(messages: ChatMessage[], tools: ToolSpec[], o: GenerateOptions): ChatCompletionCreateParamsNonStreaming {
    return {
      model: this.settings.model,
      messages: toOpenAIMessages(messages),
      ...(tools.length ? { tools: toOpenAITools(tools) } : {}),
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
      ...(o.maxTokens !== undefined ? (this.settings.legacyMaxTokens ? { max_tokens: o.maxTokens } : { max_completion_tokens: o.maxTokens }) : {}),
      ...(o.reasoningEffort !== undefined ? { reasoning_effort: o.reasoningEffort } : {}),
      ...(this.settings.promptCacheKey && o.cacheKey ? { prompt_cache_key: promptCacheKey(o.cacheKey) } : {}),
    };
  }

  async generate(messages: ChatMessage[], tools: ToolSpec[], options?: GenerateOptions): Promise<Generation> {
    const o = mergeOptions(this.settings.defaults, options);
    const body = this.requestBody(messages, tools, o);
    const { result, latencyMs } = await callModel(this.settings, o.signal, async () => {
      const res = await this.settings.sdk.chat.completions.create(body, {
        timeout: this.settings.timeoutMs,
        ...(o.signal ? { signal: o.signal } : {}),
      });
      if (!res.choices?.[0]) throw new EmptyResponseError('the response has no choices');
      return res;
    });
    return this.generation(result, latencyMs);
  }

  /** A completion as a generation; `billing` says how it was sent, which sets its price. */
  generation(result: ChatCompletion, latencyMs: number, billing?: Billing): Generation {
    const choice = result.choices[0];
    if (!choice) throw new EmptyResponseError('the response has no choices');
    const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).flatMap((c, i): ToolCall[] => {
      // Custom (free-text) tools are not offered; a missing type is a lax server's function call.
      if ((c as { type?: string }).type !== undefined && c.type !== 'function') return [];
      const fn = (c as ChatCompletionMessageFunctionToolCall).function;
      // Some servers leave ids empty; the tool result still needs one to answer.
      return [{ id: c.id || `call_${result.id || 'anon'}_${i}`, name: fn.name, arguments: argumentsText(fn.arguments) }];
    });
    const usage = fromOpenAIUsage(result.usage);
    return {
      text: choice.message.content ?? choice.message.refusal ?? '',
      toolCalls,
      usage: usage ?? { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      // No usage reported means the cost is unknown, not zero.
      costUsd: usage ? this.settings.cost(usage, billing) : null,
      latencyMs,
      stopReason: choice.finish_reason ?? 'unknown',
      ...(choice.message.refusal ? { refusal: true } : {}),
    };
  }

  async close(): Promise<void> {
    this.settings.onClose?.();
  }
}
