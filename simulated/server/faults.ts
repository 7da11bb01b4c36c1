import { createHash } from 'node:crypto';
import { z } from 'zod';

/** A fault the server can inject into one response. */
export const FaultKindSchema = z.enum([
  'none',
  'rate_limit',
  'server_error',
  'overloaded',
  'slow',
  'malformed_tool_call',
  'cut_tool_call',
  'refusal',
  'parallel_calls',
  'context_overflow',
  // Only in a sequence: a 502 whose body is an HTML page, as a gateway in front of a provider answers.
  'gateway_error',
  // Only in a sequence: a streamed answer breaks after it began, with the wire's error event (a plain answer is whole).
  'stream_error',
]);
export type FaultKind = z.infer<typeof FaultKindSchema>;

const rate = z.number().min(0).max(1);

/**
 * How often each fault happens. Rates are probabilities per request, drawn from a hash of
 * (server seed, session key, request number), so a run with the same seed sees the same faults
 * whatever the order in which concurrent sessions reach the server.
 */
export const FaultConfigSchema = z.strictObject({
  /** 429 with a Retry-After header. */
  rateLimit: rate.default(0),
  /** 500 with an error body. */
  serverError: rate.default(0),
  /** The answer (or error) comes after `slowMs`. */
  slow: rate.default(0),
  /** Each tool call's arguments lose their closing brace. */
  malformedToolCall: rate.default(0),
  /** 529 `overloaded_error` (Anthropic) or 503 "overloaded" (OpenAI): retried like any outage. */
  overloaded: rate.default(0),
  /** The answer stops at max_tokens in the middle of a tool call's JSON (or of its text, when it calls none). */
  cutToolCall: rate.default(0),
  /** The model declines: OpenAI's `refusal` with no content, Anthropic's `stop_reason: "refusal"`. */
  refusal: rate.default(0),
  /** The answer makes a second tool call beside the policy's (a `think`, or a harmless `pwd`). */
  parallelCalls: rate.default(0),
  /**
   * The conversation overflows the context window from this request on (0-based): every later request overflows too,
   * as a real one does once the transcript has outgrown the window.
   */
  overflowAfter: z.number().int().min(0).optional(),
  /** Overflow once a request holds more than this many (approximate) input tokens. */
  contextWindow: z.number().int().positive().optional(),
  /**
   * How an overflow shows: an HTTP 400 as each provider documents it, or (Anthropic only; OpenAI keeps the 400) a
   * completed answer with `stop_reason: "model_context_window_exceeded"`.
   */
  overflowAs: z.enum(['error', 'stop_reason']).default('error'),
  /** The Retry-After a 429 carries, in seconds. */
  retryAfterSeconds: z.number().min(0).default(1),
  slowMs: z.number().int().min(0).default(2000),
  /** This many of the session's first batches (OpenAI Batch API, Message Batches) expire with only their first half answered. */
  batchExpire: z.number().int().min(0).default(0),
  /** Faults for a session's first requests, in order, before the rates apply. */
  sequence: z.array(FaultKindSchema).default([]),
});
export type FaultConfig = z.input<typeof FaultConfigSchema>;
export type ResolvedFaultConfig = z.output<typeof FaultConfigSchema>;

/** A change to the shape of an answer, as real models produce them. */
export type AnswerShape = 'cut_tool_call' | 'refusal' | 'parallel_calls';

/** What happens to one request. */
export interface FaultDecision {
  /** The error status sent instead of an answer, if any. */
  error?: 'rate_limit' | 'server_error' | 'overloaded' | 'context_overflow' | 'gateway_error' | 'stream_error';
  slow: boolean;
  malformedToolCall: boolean;
  shape?: AnswerShape;
}

export const NO_FAULT: FaultDecision = { slow: false, malformedToolCall: false };

/** Uniform numbers in [0, 1) determined by the seed, the session key and the request number. */
function draws(seed: number, key: string, request: number): number[] {
  const digest = createHash('sha256').update(`${seed}\0${key}\0${request}`).digest();
  return Array.from({ length: 5 }, (_, i) => digest.readUInt32BE(i * 4) / 2 ** 32);
}

export function decideFault(config: ResolvedFaultConfig, seed: number, key: string, request: number): FaultDecision {
  // An overflow is not a chance event: once the transcript has outgrown the window, every request overflows.
  if (config.overflowAfter !== undefined && request >= config.overflowAfter) {
    return { error: 'context_overflow', slow: false, malformedToolCall: false };
  }
  const scripted = config.sequence[request];
  if (scripted !== undefined) {
    switch (scripted) {
      case 'none':
        return NO_FAULT;
      case 'rate_limit':
      case 'server_error':
      case 'overloaded':
      case 'context_overflow':
      case 'gateway_error':
      case 'stream_error':
        return { error: scripted, slow: false, malformedToolCall: false };
      case 'slow':
        return { slow: true, malformedToolCall: false };
      case 'malformed_tool_call':
        return { slow: false, malformedToolCall: true };
      case 'cut_tool_call':
      case 'refusal':
      case 'parallel_calls':
        return { slow: false, malformedToolCall: false, shape: scripted };
    }
  }
  const [status = 1, slow = 1, malformed = 1, shape = 1] = draws(seed, key, request);
  const decision: FaultDecision = {
    slow: slow < config.slow,
    malformedToolCall: malformed < config.malformedToolCall,
  };
  if (status < config.rateLimit) decision.error = 'rate_limit';
  else if (status < config.rateLimit + config.serverError) decision.error = 'server_error';
  else if (status < config.rateLimit + config.serverError + config.overloaded) decision.error = 'overloaded';
  const shapes: [AnswerShape, number][] = [
    ['cut_tool_call', config.cutToolCall],
    ['refusal', config.refusal],
    ['parallel_calls', config.parallelCalls],
  ];
  let bound = 0;
  for (const [name, p] of shapes) {
    bound += p;
    if (shape < bound) {
      decision.shape = name;
      break;
    }
  }
  return decision;
}

/** Breaks a tool call's JSON the way a truncated generation does: the closing brace goes missing. */
export function corruptArguments(json: string): string {
  const trimmed = json.trimEnd();
  return trimmed.length > 1 ? trimmed.slice(0, -1) : '{';
}

const HARMLESS_CALLS: Record<string, string> = {
  think: JSON.stringify({ thought: 'Let me also keep track of where I am.' }),
  bash: JSON.stringify({ command: 'pwd' }),
};

/**
 * A second tool call beside the policy's, made first, as a model calling tools in parallel does: a `think` where it is
 * offered, else a `pwd`. Undefined when the request offers neither (a loop without tools).
 */
export function withParallelCall(calls: { name: string; arguments: string }[], offered: readonly string[]) {
  const extra = ['think', 'bash'].find((name) => offered.includes(name));
  return extra === undefined ? undefined : [{ name: extra, arguments: HARMLESS_CALLS[extra]! }, ...calls];
}

/** The first half of a text: what an answer stopped at max_tokens keeps. */
export function cutHalf(text: string): string {
  return text.slice(0, Math.floor(text.length / 2));
}
