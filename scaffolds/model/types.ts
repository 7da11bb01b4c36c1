/** One provider-neutral chat interface; the OpenAI and Anthropic clients both implement it. */

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model sent it; may be malformed, which the agent loop reports back. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
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
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
}

export interface Generation {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** US dollars; null when the model's price is unknown (never a silent zero). */
  costUsd: number | null;
  latencyMs: number;
  stopReason: string;
}

export interface ModelClient {
  /** `openai/gpt-5`, `anthropic/claude-...`, `scripted/honest`. */
  readonly name: string;
  generate(messages: ChatMessage[], tools: ToolSpec[], options?: GenerateOptions): Promise<Generation>;
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
