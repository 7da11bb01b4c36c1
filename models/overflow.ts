/**
 * How each provider says a request no longer fits the model's context window. An overflow is the model's limit, not
 * an outage: the same request overflows again, so it is never retried (see ContextOverflowError).
 *
 * - OpenAI (Chat Completions and Responses): 400 with `code: "context_length_exceeded"`.
 * - Anthropic: 400 `invalid_request_error`, "prompt is too long: N tokens > M maximum", or "input length and
 *   `max_tokens` exceed context limit".
 * - vLLM, LiteLLM and servers copying OpenAI's text: 400 "This model's maximum context length is N tokens";
 *   LiteLLM's `ContextWindowExceededError`.
 * - llama.cpp: 400 `exceed_context_size_error`, "the request exceeds the available context size".
 * - Ollama: "input length exceeds the context length"; TGI (422): "`inputs` tokens + `max_new_tokens` must be <= N".
 */
const OVERFLOW_CODES = new Set(['context_length_exceeded', 'exceed_context_size_error', 'context_window_exceeded']);

const OVERFLOW_TEXT = [
  /maximum context length/i,
  /prompt is too long/i,
  /exceeds? (the )?(available |maximum )?context (size|length|window)/i,
  /exceed context limit/i,
  /context ?window ?exceeded/i,
  /context_length_exceeded/i,
  /input length exceeds/i,
  /`inputs` tokens \+ `max_new_tokens`/i,
];

/** Statuses an overflow arrives with: a plain bad request, or a validation error (TGI). */
const OVERFLOW_STATUSES = new Set([400, 413, 422]);

/** Whether an API failure with this status, error code or type, and message is a context-window overflow. */
export function isContextOverflow(status: number | undefined, kinds: readonly unknown[], message: string): boolean {
  if (status === undefined || !OVERFLOW_STATUSES.has(status)) return false;
  if (kinds.some((k) => typeof k === 'string' && OVERFLOW_CODES.has(k))) return true;
  return OVERFLOW_TEXT.some((re) => re.test(message));
}
