/**
 * Model clients: one interface (`ModelClient.generate(messages, tools, options)`, in core/model.ts) over OpenAI Chat
 * Completions, the OpenAI Responses API, Anthropic Messages, any OpenAI-compatible server, and scripted policies
 * served by the local model server through the same real SDKs.
 *
 *   openai/NAME             Chat Completions; Responses for the models OpenAI serves only there (`onlyOnResponses`:
 *                           every codex model, the -pro and deep-research ones)
 *   openai-responses/NAME   Responses (store: false; each turn's encrypted reasoning goes back with the next)
 *   anthropic/NAME          Messages
 *   openai-compatible/NAME  Chat Completions at a base URL
 *   scripted/POLICY         the local model server, over any of the three (`wire`): a provider the simulated room
 *                           registers (`registerModelProvider`) when its server is loaded
 *
 *   const model = createModelClient('anthropic/claude-sonnet-4-5', { logger, defaults: { maxTokens: 4096 } });
 *   const gen = await model.generate(messages, tools);   // text, toolCalls, usage, costUsd, latencyMs
 *
 * Failures are retried with jittered exponential backoff that honours Retry-After; after the last
 * retry a `ModelApiError` is thrown, which makes the sample's outcome `error`, never a model failure.
 * Requests in flight are limited per provider across the process. Cost is null when the model's
 * price is unknown; scripted models cost 0 (unless the price table prices them) and report the server's approximate token counts.
 *
 * Environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENAI_COMPATIBLE_API_KEY (optional; never
 * replaced by the OpenAI key), IMPOSSIBLEBENCH_PRICES (a JSON price file over the built-in table).
 */
export { createModelClient, registerModelProvider } from './factory.js';
export type { ClientParts, ModelClientOptions, ModelProvider } from './factory.js';
export { onlyOnResponses, parseModelSpec, PROVIDERS } from './spec.js';
export type { ModelSpec, Provider } from './spec.js';
export { BATCH_DISCOUNT, billedModel, BUILTIN_PRICES, defaultPrices, loadPriceFile, PRICES_ENV, PriceFileSchema, PriceTable } from './prices.js';
export type { Billing, ModelPrice, PriceEntry } from './prices.js';
export { DEFAULT_RETRY, backoffMs, retryAfterMs } from './retry.js';
export type { RetryPolicy } from './retry.js';
export { DEFAULT_CONCURRENCY, providerLimiter } from './limits.js';
