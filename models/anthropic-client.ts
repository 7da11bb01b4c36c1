import type Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { callModel, mergeOptions, type ClientSettings } from './call.js';
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
import { AnthropicBatches } from './anthropic-batches.js';
import { sdkEndpoint } from './endpoint.js';
import type { Billing } from './prices.js';

// SDK notices already logged in this process (clients are made per sample; the notice is per model).
const NOTICED = new Set<string>();

/** Output budget when none is given; Messages requires one. */
export const DEFAULT_MAX_TOKENS = 8192;

/** Tool-call arguments as a tool_use input: the object, or the raw text of a malformed call. */
function toolInput(args: string): unknown {
  try {
    const parsed = JSON.parse(args) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // fall through: keep the text so the conversation shows what the model really sent
  }
  return args;
}

/**
 * Neutral messages → Messages API: system text goes to `system`; tool results and user text merge
 * into user turns (results first, as they arrive); signed thinking goes back before the text.
 */
export function toAnthropicMessages(messages: ChatMessage[]): { system: string; messages: MessageParam[] } {
  const system: string[] = [];
  const out: MessageParam[] = [];
  const userTurn = (): ContentBlockParam[] => {
    const last = out.at(-1);
    if (last?.role === 'user' && Array.isArray(last.content)) return last.content as ContentBlockParam[];
    const blocks: ContentBlockParam[] = [];
    out.push({ role: 'user', content: blocks });
    return blocks;
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        // Empty text blocks are refused by the API.
        if (m.content.trim()) userTurn().push({ type: 'text', text: m.content });
        break;
      case 'tool':
        userTurn().push({ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content });
        break;
      case 'assistant': {
        const blocks: ContentBlockParam[] = [];
        // Another provider's reasoning means nothing here.
        for (const r of m.reasoning ?? []) if (r.type === 'thinking' || r.type === 'redacted_thinking') blocks.push({ ...r });
        if (m.content.trim()) blocks.push({ type: 'text', text: m.content });
        for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: toolInput(c.arguments) });
        if (blocks.length === 0) blocks.push({ type: 'text', text: '(no content)' });
        out.push({ role: 'assistant', content: blocks });
        break;
      }
    }
  }
  for (const turn of out) {
    if (Array.isArray(turn.content) && turn.content.length === 0) turn.content.push({ type: 'text', text: '(no content)' });
  }
  return { system: system.join('\n\n'), messages: out };
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Prompt-cache breakpoints as mini-swe-agent sets them: one on the system prompt (it caches the tools and the system
 * text) and one on the newest turn's last block, so each request reads the prefix the previous one wrote and writes
 * the turns it adds. Thinking blocks cannot carry one, so the mark goes on the last block that can. Copies, never
 * changes, its input.
 */
export function withCacheBreakpoints(system: string, messages: MessageParam[]): { system: TextBlockParam[] | undefined; messages: MessageParam[] } {
  const marked = [...messages];
  const last = marked.at(-1);
  if (last && Array.isArray(last.content)) {
    const blocks = [...(last.content as ContentBlockParam[])];
    const at = blocks.findLastIndex((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking');
    if (at >= 0) blocks[at] = { ...blocks[at], cache_control: EPHEMERAL } as ContentBlockParam;
    marked[marked.length - 1] = { ...last, content: blocks } as MessageParam;
  }
  return { system: system ? [{ type: 'text', text: system, cache_control: EPHEMERAL }] : undefined, messages: marked };
}

export function toAnthropicTools(tools: ToolSpec[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Tool['input_schema'] }));
}

/**
 * Messages usage → neutral usage. Cache reads and writes count as input. Thinking bills as output;
 * its share is `output_tokens_details.thinking_tokens` where the API reports it, else an estimate
 * from the thinking text (four characters a token), capped at the output.
 */
export function fromAnthropicUsage(message: Message): Usage {
  const u = message.usage;
  const reported = u.output_tokens_details?.thinking_tokens;
  const thinkingChars = message.content.reduce((n, b) => n + (b.type === 'thinking' ? b.thinking.length : 0), 0);
  const cacheRead = u.cache_read_input_tokens ?? 0;
  const cacheWrite = u.cache_creation_input_tokens ?? 0;
  return {
    // Messages counts input_tokens apart from the cache's: the neutral count is all of them.
    inputTokens: u.input_tokens + cacheWrite + cacheRead,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: u.output_tokens,
    reasoningTokens: Math.min(u.output_tokens, reported ?? Math.ceil(thinkingChars / 4)),
  };
}

export interface AnthropicClientSettings extends ClientSettings {
  /** The APIs of the same provider an agent program may reach this model through (default: this client's own). */
  apis?: readonly ModelApi[];
  sdk: Anthropic;
  /** Send prompt-cache breakpoints (see withCacheBreakpoints). */
  promptCache: boolean;
}

/** Messages with tool use and an extended-thinking budget. */
export class AnthropicMessagesClient implements ModelClient {
  readonly name: string;

  constructor(private readonly settings: AnthropicClientSettings) {
    this.name = settings.name;
    this.batches = new AnthropicBatches(settings, this);
  }

  endpoint(api: ModelApi): ModelEndpoint | undefined {
    return sdkEndpoint(
      { baseURL: this.settings.sdk.baseURL, apiKey: this.settings.sdk.apiKey },
      this.settings.model,
      this.settings.apis ?? ['anthropic'],
      api,
    );
  }

  /** Message Batches. */
  readonly batches: ModelBatches;

  /** The request body of a call, as sent alone or in a batch. */
  requestBody(messages: ChatMessage[], tools: ToolSpec[], o: GenerateOptions): MessageCreateParamsNonStreaming {
    const plain = toAnthropicMessages(messages);
    const { system, messages: wire } = this.settings.promptCache ? withCacheBreakpoints(plain.system, plain.messages) : plain;
    const thinking = o.thinkingBudget !== undefined && o.thinkingBudget > 0;
    return {
      model: this.settings.model,
      max_tokens: o.maxTokens ?? (thinking ? o.thinkingBudget! + DEFAULT_MAX_TOKENS : DEFAULT_MAX_TOKENS),
      messages: wire,
      ...(system ? { system } : {}),
      ...(tools.length ? { tools: toAnthropicTools(tools) } : {}),
      // Extended thinking only runs at the default temperature, so a set temperature is dropped with it.
      ...(thinking ? { thinking: { type: 'enabled', budget_tokens: o.thinkingBudget! } } : {}),
      ...(!thinking && o.temperature !== undefined ? { temperature: o.temperature } : {}),
      // Reasoning effort maps to Messages' output effort (which has no "minimal": the lowest is "low"). A thinking budget
      // already says how hard to reason, and most Claude models refuse the effort setting, so it goes alone.
      ...(o.reasoningEffort !== undefined && !thinking
        ? { output_config: { effort: o.reasoningEffort === 'minimal' ? 'low' : o.reasoningEffort } }
        : {}),
    };
  }

  async generate(messages: ChatMessage[], tools: ToolSpec[], options?: GenerateOptions): Promise<Generation> {
    const o = mergeOptions(this.settings.defaults, options);
    const body = this.requestBody(messages, tools, o);
    const { result, latencyMs } = await callModel(this.settings, o.signal, () =>
      this.withSdkNotices(() =>
        this.settings.sdk.messages.create(body, {
          timeout: this.settings.timeoutMs,
          ...(o.signal ? { signal: o.signal } : {}),
        }),
      ),
    );
    return this.generation(result, latencyMs);
  }

  /** A message as a generation; `billing` says how it was sent, which sets its price. */
  generation(result: Message, latencyMs: number, billing?: Billing): Generation {
    const text: string[] = [];
    const toolCalls: ToolCall[] = [];
    const reasoning: ReasoningBlock[] = [];
    for (const b of result.content) {
      if (b.type === 'text') text.push(b.text);
      else if (b.type === 'tool_use') {
        // A string input is a call whose JSON did not parse: keep the raw text for the agent loop.
        toolCalls.push({ id: b.id, name: b.name, arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}) });
      } else if (b.type === 'thinking') reasoning.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
      else if (b.type === 'redacted_thinking') reasoning.push({ type: 'redacted_thinking', data: b.data });
    }
    const usage = fromAnthropicUsage(result);
    return {
      text: text.join(''),
      toolCalls,
      usage,
      costUsd: this.settings.cost(usage, billing),
      latencyMs,
      stopReason: result.stop_reason ?? 'unknown',
      ...(reasoning.length ? { reasoning } : {}),
      ...(result.stop_reason === 'refusal' ? { refusal: true } : {}),
      ...((result.stop_reason as string) === 'model_context_window_exceeded' ? { contextExhausted: true } : {}),
    };
  }

  /**
   * `messages.create` prints model notices (deprecation, thinking mode) with console.warn on every
   * call, which would scatter through a run's progress display. It does so synchronously, before
   * its promise exists, so catching console.warn for exactly that synchronous span is safe; each
   * distinct notice goes to the logger once per process.
   */
  private withSdkNotices<T>(call: () => T): T {
    const original = console.warn;
    const notices: string[] = [];
    console.warn = (...args: unknown[]) => notices.push(args.map(String).join(' '));
    try {
      return call();
    } finally {
      console.warn = original;
      for (const notice of notices) {
        if (NOTICED.has(notice)) continue;
        NOTICED.add(notice);
        this.settings.logger?.warn({ model: this.name, notice }, 'notice from the Anthropic SDK');
      }
    }
  }

  async close(): Promise<void> {
    this.settings.onClose?.();
  }
}
