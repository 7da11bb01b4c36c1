/**
 * The local model server: speaks OpenAI Chat Completions and Responses and Anthropic Messages on 127.0.0.1,
 * answers from scripted policies (one session per sample, the session token being the API key)
 * and injects 429s, 500s, slow answers and malformed tool calls at seeded, reproducible rates.
 *
 *   const server = await startModelServer({ seed: 1, faults: { rateLimit: 0.05 } });
 *   const token = server.openSession(policy, { task, scaffold: 'full' });
 *   new OpenAI({ baseURL: server.openaiBaseUrl, apiKey: token });
 *   new Anthropic({ baseURL: server.anthropicBaseUrl, apiKey: token });
 *   await server.close();
 *
 * Token counts are a deterministic approximation (see tokens.ts), not a real tokenizer's; the
 * server does not truncate answers at max_tokens. Streaming (`stream: true`) is served on every wire. Each session
 * reports prompt-cache usage as the providers do (cache.ts): OpenAI's cached prefix of every prompt (both OpenAI
 * wires), Anthropic's reads and writes at `cache_control` breakpoints. The Responses route hands out reasoning items
 * with server-made encrypted content and refuses (400) a `store: false` request that continues an answer without its
 * reasoning item (see responses-wire.ts); Chat Completions refuses codex models, as OpenAI does.
 */
// Whoever loads the server can build `scripted/` models with createModelClient: their provider registers here.
import '../scripted-model.js';

export { startModelServer } from './server.js';
export type { ModelServer, ModelServerOptions, SessionOptions, SessionStats } from './server.js';
export { REASONING_TOKENS } from './responses-wire.js';
export { FaultConfigSchema, FaultKindSchema } from './faults.js';
export type { FaultConfig, FaultKind } from './faults.js';
export { approxTokens } from './tokens.js';
export { anthropicCacheUsage, cachedPrefixTokens, newPromptCache } from './cache.js';
export type { PromptCache } from './cache.js';
