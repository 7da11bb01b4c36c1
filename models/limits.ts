import pLimit, { type LimitFunction } from 'p-limit';

/** Requests in flight at once per provider, unless configured. */
export const DEFAULT_CONCURRENCY: Record<string, number> = {
  openai: 16,
  anthropic: 16,
  'openai-compatible': 8,
  scripted: 64,
};

// One limiter per provider for the whole process, so every client of a provider shares it.
const limiters = new Map<string, LimitFunction>();

/**
 * The shared limiter for `key` (a provider, or `openai-compatible@URL` for one server). Passing a
 * concurrency sets it for every client of that key.
 */
export function providerLimiter(key: string, concurrency?: number): LimitFunction {
  let limiter = limiters.get(key);
  if (!limiter) {
    const provider = key.split('@')[0] ?? key;
    limiter = pLimit(concurrency ?? DEFAULT_CONCURRENCY[provider] ?? 8);
    limiters.set(key, limiter);
  } else if (concurrency !== undefined && limiter.concurrency !== concurrency) {
    limiter.concurrency = concurrency;
  }
  return limiter;
}
