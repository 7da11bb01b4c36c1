import { createHash } from 'node:crypto';
import type { ChatMessage, ToolSpec } from '../../core/model.js';
import { fromMessagesRequest, type MessagesRequest } from './anthropic-wire.js';
import { messageTokens, toolsTokens } from './tokens.js';

/**
 * The server's prompt cache, one per session, reported as the providers report theirs. A conversation is cut at
 * message boundaries into prefixes (prefix k: the tools, then the first k messages, the order both providers cache
 * in); a prefix is known by a hash chained over its parts, and counted with the server's approximate tokens.
 *
 * - OpenAI caches every prompt of at least 1024 tokens by itself; a later prompt reads the longest prefix it shares
 *   with one served before, counted in steps of 128 tokens (`prompt_tokens_details.cached_tokens`).
 * - Anthropic caches only at `cache_control` breakpoints, a prefix of at least 1024 tokens: a request reads the
 *   longest prefix written before at or up to 20 blocks before one of its breakpoints (`cache_read_input_tokens`),
 *   writes from there to its last breakpoint (`cache_creation_input_tokens`), and the rest is plain input.
 *
 * Entries never expire (a provider keeps them 5 minutes or more after their last use; a scripted turn takes far less).
 */
export interface PromptCache {
  /** Prefixes OpenAI holds: those of every prompt served. */
  readonly automatic: Set<string>;
  /** Prefixes Anthropic holds: those written at breakpoints. */
  readonly marked: Set<string>;
}

/** Neither provider caches a shorter prefix (Anthropic's minimum for its Sonnet and Opus models). */
export const MIN_CACHED_TOKENS = 1024;
/** OpenAI reports cache hits in steps of this many tokens. */
export const OPENAI_CACHE_STEP = 128;
/** How far back before a breakpoint Anthropic looks for a cached prefix (blocks there, messages here). */
export const ANTHROPIC_LOOKBACK = 20;

export function newPromptCache(): PromptCache {
  return { automatic: new Set(), marked: new Set() };
}

/** Prefix k's hash and token count, for k = 0 (the tools alone) to every message. */
function prefixes(messages: ChatMessage[], tools: ToolSpec[]): { hashes: string[]; tokens: number[] } {
  let hash = createHash('sha256').update(JSON.stringify(tools)).digest('hex');
  let tokens = toolsTokens(tools);
  const out = { hashes: [hash], tokens: [tokens] };
  for (const m of messages) {
    hash = createHash('sha256').update(hash).update(JSON.stringify(m)).digest('hex');
    tokens += messageTokens(m);
    out.hashes.push(hash);
    out.tokens.push(tokens);
  }
  return out;
}

/**
 * OpenAI's `cached_tokens` for a prompt: the tokens of the longest prefix this session served before, in steps of 128,
 * none below 1024. The prompt is cached from then on. Shared by every OpenAI route (Chat Completions, Responses).
 */
export function cachedPrefixTokens(cache: PromptCache, messages: ChatMessage[], tools: ToolSpec[]): number {
  const { hashes, tokens } = prefixes(messages, tools);
  const hit = hashes.findLastIndex((h) => cache.automatic.has(h));
  for (const h of hashes) cache.automatic.add(h);
  if (hit < 0 || tokens.at(-1)! < MIN_CACHED_TOKENS) return 0;
  const cached = Math.floor(tokens[hit]! / OPENAI_CACHE_STEP) * OPENAI_CACHE_STEP;
  return cached >= MIN_CACHED_TOKENS ? cached : 0;
}

/**
 * Anthropic's cache usage for a request with breakpoints after the given numbers of messages (0: after the tools).
 * Reads are the longest written prefix found looking back from a breakpoint; writes run from there to the last
 * breakpoint long enough to cache, whose prefix and every cacheable breakpoint's before it are cached from then on.
 */
export function anthropicCacheUsage(
  cache: PromptCache,
  messages: ChatMessage[],
  tools: ToolSpec[],
  breakpoints: number[],
): { read: number; write: number } {
  const { hashes, tokens } = prefixes(messages, tools);
  const cacheable = breakpoints.filter((b) => b < hashes.length && tokens[b]! >= MIN_CACHED_TOKENS).sort((a, b) => a - b);
  const top = cacheable.at(-1);
  if (top === undefined) return { read: 0, write: 0 };
  let hit = -1;
  for (const b of cacheable) {
    for (let k = b; k >= Math.max(0, b - ANTHROPIC_LOOKBACK); k--) {
      if (cache.marked.has(hashes[k]!)) {
        hit = Math.max(hit, k);
        break;
      }
    }
  }
  const read = hit >= 0 ? tokens[hit]! : 0;
  for (const b of cacheable) if (b > hit) cache.marked.add(hashes[b]!);
  return { read, write: tokens[top]! - read };
}

const hasMark = (x: unknown): boolean => typeof x === 'object' && x !== null && (x as { cache_control?: unknown }).cache_control != null;

/**
 * Where a Messages request puts its `cache_control` breakpoints, as numbers of neutral messages before them (as
 * `fromMessagesRequest` converts the request): a mark on a tool counts after all the tools, one on the system prompt
 * after it, one in a turn after that whole turn.
 */
export function anthropicBreakpoints(req: MessagesRequest): number[] {
  const before = (turns: number) => fromMessagesRequest({ ...req, messages: req.messages.slice(0, turns) }).messages.length;
  const out: number[] = [];
  if ((req.tools ?? []).some(hasMark)) out.push(0);
  if (Array.isArray(req.system) && req.system.some(hasMark)) out.push(before(0));
  req.messages.forEach((m, i) => {
    if (Array.isArray(m.content) && m.content.some(hasMark)) out.push(before(i + 1));
  });
  return out;
}

/** The cache's part of one served request's usage, by wire format; a Messages request's breakpoints go to `seen`. */
export function servedCacheUsage(
  wire: 'openai' | 'anthropic' | 'responses',
  cache: PromptCache,
  conversation: { messages: ChatMessage[]; tools: ToolSpec[] },
  request: unknown,
  seen: { lastCacheBreakpoints?: number[] },
): { cacheReadTokens: number; cacheWriteTokens: number } {
  const { messages, tools } = conversation;
  if (wire !== 'anthropic') return { cacheReadTokens: cachedPrefixTokens(cache, messages, tools), cacheWriteTokens: 0 };
  seen.lastCacheBreakpoints = anthropicBreakpoints(request as MessagesRequest);
  const { read, write } = anthropicCacheUsage(cache, messages, tools, seen.lastCacheBreakpoints);
  return { cacheReadTokens: read, cacheWriteTokens: write };
}
