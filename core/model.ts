/**
 * The model client contract: one provider-neutral chat interface. The clients that implement it (OpenAI, Anthropic,
 * OpenAI-compatible, scripted) are in models/; the agent loops and results' judge and monitors speak through it.
 */

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model sent it; may be malformed, which the agent loop reports back. */
  arguments: string;
}

/**
 * A provider's opaque reasoning, kept so it can be sent back verbatim: Anthropic requires the
 * signed thinking blocks of a tool-using turn to come back with the tool results.
 */
export type ReasoningBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  /** An OpenAI Responses reasoning item, sent back with its encrypted content so nothing is kept at the provider. */
  | { type: 'openai_reasoning'; id: string; encryptedContent: string; summary: string[] };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[]; reasoning?: ReasoningBlock[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface GenerateOptions {
  temperature?: number;
  seed?: number;
  maxTokens?: number;
  /** OpenAI reasoning effort. */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Anthropic extended-thinking budget in tokens. */
  thinkingBudget?: number;
  signal?: AbortSignal;
  /**
   * Names the conversation for the provider's prompt cache (OpenAI `prompt_cache_key`): one per sample, so every turn
   * of a sample is routed to where its prefix is cached.
   */
  cacheKey?: string;
}

export interface Usage {
  /** Every input token, those read from or written to the prompt cache included. */
  inputTokens: number;
  /** The part of `inputTokens` read from the provider's prompt cache (billed at its cache-read price). */
  cacheReadTokens: number;
  /** The part of `inputTokens` written to the prompt cache (Anthropic bills it above plain input). */
  cacheWriteTokens: number;
  /** Everything the model generated, reasoning included (that is how providers bill it). */
  outputTokens: number;
  /** The part of `outputTokens` spent reasoning. */
  reasoningTokens: number;
}

export interface Generation {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** US dollars; null when the model's price is unknown (never a silent zero). */
  costUsd: number | null;
  /** Wall time of the whole call: queueing, retries and backoff included. */
  latencyMs: number;
  stopReason: string;
  /** Reasoning to copy into the assistant message the loop appends (see ReasoningBlock). */
  reasoning?: ReasoningBlock[];
  /** The model declined to answer (OpenAI's `refusal`, Anthropic's `stop_reason: "refusal"`): counted per sample. */
  refusal?: boolean;
  /**
   * The answer stopped because the context window was full (Anthropic's `model_context_window_exceeded`): the agent
   * cannot go on, and the sample ends with stop reason `context_limit`.
   */
  contextExhausted?: boolean;
}

/** The HTTP APIs a model may be reached through: what an agent program speaks to its model. */
export const MODEL_APIS = ['openai-chat', 'openai-responses', 'anthropic'] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

/** Where a model answers one API: what an agent program's proxy forwards to. */
export interface ModelEndpoint {
  /**
   * The base URL as the provider's SDK holds it, path prefix and all: OpenAI's ends in `/v1`
   * (`https://api.openai.com/v1`), Anthropic's does not (`https://api.anthropic.com`).
   */
  baseUrl: string;
  /** The real key; it stays in the harness. */
  apiKey: string;
  /** The name the provider knows the model by (`gpt-5-codex`). */
  model: string;
  /** Account headers the SDK sends beside the key (OpenAI's organization and project); they stay in the harness too. */
  headers?: Readonly<Record<string, string>>;
}

export interface ModelClient {
  /** `openai/gpt-5`, `anthropic/claude-...`, `scripted/honest`. */
  readonly name: string;
  /**
   * Where the model answers `api`, for an agent program that talks to it itself (through the harness's proxy);
   * undefined when its provider does not speak that API.
   */
  endpoint?(api: ModelApi): ModelEndpoint | undefined;
  generate(messages: ChatMessage[], tools: ToolSpec[], options?: GenerateOptions): Promise<Generation>;
  /** Releases what the client holds (a scripted client's server session). Safe to call twice. */
  close?(): Promise<void>;
  /** The provider's batch API, where it has one: the same requests, answered within a day at a discount. */
  readonly batches?: ModelBatches;
}

/** One request of a batch: a conversation without tools, named by an id its answer carries back. */
export interface BatchRequest {
  id: string;
  messages: ChatMessage[];
  options?: Omit<GenerateOptions, 'signal' | 'cacheKey'>;
}

/** How a submitted batch stands. */
export interface BatchState {
  /** Nothing more will come back: every request was answered, failed, expired or was canceled. */
  ended: boolean;
  /** Requests that came back so far, whatever their fate, of `total`. */
  done: number;
  total: number;
  /** The provider's own word for the batch's state (`in_progress`, `expired`, `ended`...). */
  status: string;
}

/** What became of one request of an ended batch: its answer, or why there is none. */
export type BatchAnswer = { id: string; generation: Generation } | { id: string; failed: 'errored' | 'expired' | 'canceled'; error: string };

/** A provider's batch API: requests sent together, answered later at a discount (the batch price, see models/prices.ts). */
export interface ModelBatches {
  /** Sends the requests as one batch; returns the provider's id of it. */
  submit(requests: BatchRequest[]): Promise<string>;
  check(batchId: string): Promise<BatchState>;
  /** The fate of each of `ids` in an ended batch; an id the provider gave nothing back for is `expired`. */
  results(batchId: string, ids: readonly string[]): Promise<BatchAnswer[]>;
}

/** Raised when the provider still fails after the last retry: the sample's outcome is `error`. */
export class ModelApiError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'ModelApiError';
  }
}

/**
 * The provider refused a request because the conversation no longer fits the model's context window. It is
 * deterministic (the same request overflows again), so it is never retried: the agent stops with stop reason
 * `context_limit` and the sample is graded as it stands, like one that reached its message limit.
 */
export class ContextOverflowError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
    this.name = 'ContextOverflowError';
  }
}
