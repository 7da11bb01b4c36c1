import type { LimitFunction } from 'p-limit';
import type { Logger } from 'pino';
import { withRetries, type RetryPolicy } from './retry.js';
import type { GenerateOptions, Usage } from '../core/model.js';
import type { Billing } from './prices.js';

/** What every provider client shares: naming, limits, retries, defaults and pricing. */
export interface ClientSettings {
  /** The spec, e.g. `openai/gpt-5`: names the client in logs, errors and prices. */
  name: string;
  /** The name the provider knows the model by. */
  model: string;
  limiter: LimitFunction;
  retry: RetryPolicy;
  logger?: Logger;
  /** Generation options applied when a call does not set them. */
  defaults: GenerateOptions;
  /** Per-request timeout in ms. */
  timeoutMs: number;
  /** Dollars for a call's usage (a batch request's at the batch price); null when the price is unknown. */
  cost(usage: Usage, billing?: Billing): number | null;
  /** Runs when the client is closed (a scripted session ends). */
  onClose?: () => void;
}

export const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * One logical call: each attempt waits for a slot of the provider's limiter (so waiting out a
 * backoff holds no slot), and failures go through the retry policy. Returns the result and the
 * wall time of the whole call.
 */
export async function callModel<T>(
  settings: ClientSettings,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
): Promise<{ result: T; latencyMs: number }> {
  const started = performance.now();
  const result = await withRetries(() => settings.limiter(attempt), {
    model: settings.name,
    policy: settings.retry,
    ...(settings.logger ? { logger: settings.logger } : {}),
    ...(signal ? { signal } : {}),
  });
  return { result, latencyMs: performance.now() - started };
}

export function mergeOptions(defaults: GenerateOptions, options: GenerateOptions | undefined): GenerateOptions {
  return { ...defaults, ...Object.fromEntries(Object.entries(options ?? {}).filter(([, v]) => v !== undefined)) };
}
