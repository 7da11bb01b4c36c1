import type OpenAI from 'openai';
import type {
  FunctionTool,
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import { callModel, mergeOptions, type ClientSettings } from './call.js';
import { promptCacheKey } from './openai-client.js';
import { EmptyResponseError } from './retry.js';
import type {
  ChatMessage,
  Generation,
  GenerateOptions,
  ModelBatches,
  ModelClient,
  ReasoningBlock,
  ToolCall,
  ToolSpec,
  Usage,
  ModelApi,
  ModelEndpoint,
} from '../core/model.js';
import { sdkEndpoint } from './endpoint.js';
import { OpenAIBatches } from './openai-batches.js';
import type { Billing } from './prices.js';
import { z } from 'zod';

/**
 * Neutral messages → Responses input. System text goes to `instructions`. An assistant turn becomes the items the
 * model produced: its reasoning items (with their encrypted content, the only copy there is under `store: false`),
 * its message, and one `function_call` per tool call; a tool result becomes a `function_call_output`.
 */
export function toResponsesInput(messages: ChatMessage[]): { instructions: string; input: ResponseInputItem[] } {
  const system: string[] = [];
  const input: ResponseInputItem[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        input.push({ type: 'message', role: 'user', content: m.content });
        break;
      case 'assistant': {
        // Another provider's reasoning means nothing here.
        for (const r of m.reasoning ?? []) {
          if (r.type !== 'openai_reasoning') continue;
          input.push({
            type: 'reasoning',
            id: r.id,
            encrypted_content: r.encryptedContent,
            summary: r.summary.map((text) => ({ type: 'summary_text', text })),
          });
        }
        const calls = m.toolCalls ?? [];
        // A reasoning item must be followed by what the model produced after it: an empty message when nothing else.
        if (m.content || calls.length === 0) input.push({ type: 'message', role: 'assistant', content: m.content });
        for (const c of calls) input.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments });
        break;
      }
      case 'tool':
        input.push({ type: 'function_call_output', call_id: m.toolCallId, output: m.content });
        break;
      default:
        unknownRole(m);
    }
  }
  return { instructions: system.join('\n\n'), input };
}

function unknownRole(m: never): never {
  throw new Error(`a message of an unknown role: ${JSON.stringify(m)}`);
}

export function toResponsesTools(tools: ToolSpec[]): FunctionTool[] {
  // Not strict: strict mode rewrites the schema's rules (every property required, no extra ones), and the scaffolds'
  // tools have optional arguments.
  return tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: false }));
}

/** Usage as reported; undefined when the server sent none. */
export function fromResponsesUsage(usage: ResponseUsage | undefined): Usage | undefined {
  if (!usage) return undefined;
  return {
    // input_tokens already includes the cached ones, output_tokens the reasoning ones.
    inputTokens: usage.input_tokens,
    cacheReadTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: usage.input_tokens_details?.cache_write_tokens ?? 0,
    outputTokens: usage.output_tokens,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/**
 * The stop reason in Chat Completions' words, so a cut answer reads the same on both OpenAI APIs: `length` for
 * `max_output_tokens`, `content_filter`, else `tool_calls` or `stop`.
 */
function stopReason(res: Response, toolCalls: number): string {
  if (res.status === 'incomplete') {
    const reason = res.incomplete_details?.reason;
    return reason === 'max_output_tokens' ? 'length' : (reason ?? 'incomplete');
  }
  if (res.status !== undefined && res.status !== 'completed') return res.status;
  return toolCalls ? 'tool_calls' : 'stop';
}

function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  return args === undefined || args === null ? '' : JSON.stringify(args);
}

/** Response output → the neutral answer: text, refusal, tool calls (their `call_id` as the id) and reasoning to send back. */
export function fromResponse(res: Response): Pick<Generation, 'text' | 'toolCalls' | 'stopReason' | 'reasoning' | 'refusal'> {
  const text: string[] = [];
  const refusals: string[] = [];
  const toolCalls: ToolCall[] = [];
  const reasoning: ReasoningBlock[] = [];
  res.output.forEach((item, i) => {
    if (item.type === 'message') {
      for (const part of item.content ?? []) {
        if (part.type === 'output_text') text.push(part.text);
        else if (part.type === 'refusal') refusals.push(part.refusal);
      }
    } else if (item.type === 'function_call') {
      // Arguments cut at max_output_tokens stay raw text: the loop answers them with an error result.
      toolCalls.push({ id: item.call_id || item.id || `call_${res.id || 'anon'}_${i}`, name: item.name, arguments: argumentsText(item.arguments) });
    } else if (item.type === 'reasoning' && item.encrypted_content) {
      // Without its encrypted content a reasoning item cannot be sent back under store: false (nothing is kept).
      reasoning.push({
        type: 'openai_reasoning',
        id: item.id,
        encryptedContent: item.encrypted_content,
        summary: (item.summary ?? []).map((s) => s.text),
      });
    }
  });
  return {
    text: text.length ? text.join('') : refusals.join(''),
    toolCalls,
    stopReason: stopReason(res, toolCalls.length),
    ...(reasoning.length ? { reasoning } : {}),
    ...(refusals.length ? { refusal: true } : {}),
  };
}

/** A response in a batch's output, checked as far as it is read: the rest is read as a plain answer is. */
const ResponseBody = z.looseObject({ id: z.string(), output: z.array(z.looseObject({ type: z.string() })) });

/**
 * Models that said they have no encrypted reasoning to give, by spec, for the whole process (clients are made per
 * sample; the answer is the model's).
 */
const WITHOUT_ENCRYPTED_REASONING = new Set<string>();

/** OpenAI's answer to `include: ['reasoning.encrypted_content']` for a model that does not reason (gpt-4o, gpt-4.1). */
function refusesEncryptedContent(err: unknown): boolean {
  return (err as { status?: unknown }).status === 400 && /encrypted content is not supported/i.test(err instanceof Error ? err.message : '');
}

export interface ResponsesClientSettings extends ClientSettings {
  /** The APIs of the same provider an agent program may reach this model through (default: this client's own). */
  apis?: readonly ModelApi[];
  sdk: OpenAI;
  /** Send the sample's `prompt_cache_key` (off with `--no-prompt-cache`). */
  promptCacheKey: boolean;
}

/**
 * The OpenAI Responses API, stateless: `store: false`, so the provider keeps nothing, and each turn's reasoning comes
 * back encrypted (`include: ['reasoning.encrypted_content']`) to be sent with the next turn. Function tools, reasoning
 * effort, `max_output_tokens`, and the sample's `prompt_cache_key`. Responses has no seed; a temperature goes only
 * with no reasoning effort set (reasoning models refuse sampling settings). A model that does not reason refuses the
 * request for encrypted reasoning: the client then stops asking for it.
 */
export class OpenAIResponsesClient implements ModelClient {
  readonly name: string;

  constructor(private readonly settings: ResponsesClientSettings) {
    this.name = settings.name;
    this.batches = new OpenAIBatches(settings, {
      endpoint: '/v1/responses',
      requestBody: (messages, tools, o) => this.requestBody(messages, tools, o),
      readBody: (body, billing) => this.generation(ResponseBody.parse(body) as unknown as Response, 0, billing),
    });
  }

  endpoint(api: ModelApi): ModelEndpoint | undefined {
    return sdkEndpoint(this.settings.sdk, this.settings.model, this.settings.apis ?? ['openai-responses'], api);
  }

  /** OpenAI's Batch API over Responses (one-turn requests: no reasoning to carry). */
  readonly batches: ModelBatches;

  /** The request body of a call, as sent alone or in a batch. */
  requestBody(messages: ChatMessage[], tools: ToolSpec[], o: GenerateOptions): ResponseCreateParamsNonStreaming {
    const { instructions, input } = toResponsesInput(messages);
    return {
      model: this.settings.model,
      input,
      store: false,
      ...(instructions ? { instructions } : {}),
      ...(tools.length ? { tools: toResponsesTools(tools) } : {}),
      ...(o.reasoningEffort !== undefined ? { reasoning: { effort: o.reasoningEffort } } : {}),
      ...(o.temperature !== undefined && o.reasoningEffort === undefined ? { temperature: o.temperature } : {}),
      ...(o.maxTokens !== undefined ? { max_output_tokens: o.maxTokens } : {}),
      ...(this.settings.promptCacheKey && o.cacheKey ? { prompt_cache_key: promptCacheKey(o.cacheKey) } : {}),
    };
  }

  /** A response as a generation; `billing` says how it was sent, which sets its price. */
  generation(result: Response, latencyMs: number, billing?: Billing): Generation {
    const usage = fromResponsesUsage(result.usage);
    return {
      ...fromResponse(result),
      usage: usage ?? { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      // No usage reported means the cost is unknown, not zero.
      costUsd: usage ? this.settings.cost(usage, billing) : null,
      latencyMs,
    };
  }

  async generate(messages: ChatMessage[], tools: ToolSpec[], options?: GenerateOptions): Promise<Generation> {
    const o = mergeOptions(this.settings.defaults, options);
    const body = this.requestBody(messages, tools, o);
    const send = () =>
      this.settings.sdk.responses.create(WITHOUT_ENCRYPTED_REASONING.has(this.name) ? body : { ...body, include: ['reasoning.encrypted_content'] }, {
        timeout: this.settings.timeoutMs,
        ...(o.signal ? { signal: o.signal } : {}),
      });
    const { result, latencyMs } = await callModel(this.settings, o.signal, async () => {
      const res = await send().catch((err: unknown) => {
        if (WITHOUT_ENCRYPTED_REASONING.has(this.name) || !refusesEncryptedContent(err)) throw err;
        WITHOUT_ENCRYPTED_REASONING.add(this.name);
        this.settings.logger?.info({ model: this.name }, 'the model has no encrypted reasoning to give: asking for none');
        return send();
      });
      if (!Array.isArray(res.output)) throw new EmptyResponseError('the response has no output');
      // A failed response is the provider's fault, like a 500: worth another try.
      if (res.status === 'failed') throw new EmptyResponseError(`the response failed: ${res.error?.message ?? 'no reason given'}`);
      if (res.output.length === 0 && res.status !== 'incomplete') throw new EmptyResponseError('the response has no output items');
      return res;
    });
    return this.generation(result, latencyMs);
  }

  async close(): Promise<void> {
    this.settings.onClose?.();
  }
}
