import { setTimeout as sleep } from 'node:timers/promises';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { Logger } from 'pino';
import { ContextOverflowError, ModelApiError } from '../core/model.js';
import { isContextOverflow } from './overflow.js';

/** How hard to try before a call becomes a `ModelApiError` (and the sample an `error`). */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff; doubles each retry. */
  baseDelayMs: number;
  /** Cap on one computed backoff (a server's Retry-After may ask for more). */
  maxDelayMs: number;
  /** Give up when the next wait would end past this much time since the first attempt. */
  maxTotalMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 6,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  maxTotalMs: 10 * 60_000,
};

/** A response the SDK accepted but that carries no usable answer (e.g. no choices): worth another try. */
export class EmptyResponseError extends Error {
  override name = 'EmptyResponseError';
}

interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The wait a server asks for: `retry-after-ms`, else `Retry-After` as seconds or as an HTTP date.
 * Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^[+-]?\d+(\.\d+)?$/.test(value)) return Number(value) >= 0 ? Number(value) * 1000 : undefined;
  // An HTTP date names its weekday and month; Date.parse would also take bare numbers as years.
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": half fixed, half random, so synchronized clients spread out. */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** The server's own words where the body has them, else the SDK's; the cause of a connection failure. */
function describeApiError(err: InstanceType<typeof OpenAI.APIError> | InstanceType<typeof Anthropic.APIError>): string {
  const body = err.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const fromBody = 'apiMessage' in err && err.apiMessage ? err.apiMessage : (body?.message ?? body?.error?.message);
  let text = typeof fromBody === 'string' && fromBody ? fromBody : (err.message || 'API error').replace(/^\d{3} /, '');
  if (err.status === undefined) {
    // fetch wraps the socket's error: the innermost cause says what happened (ECONNREFUSED, …).
    let cause = (err as { cause?: unknown }).cause;
    while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
    if (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      text = `${text.replace(/\.$/, '')} (${typeof code === 'string' ? code : cause.message})`;
    }
  }
  return text.split('\n')[0] ?? text;
}

export interface FailureClass {
  retryable: boolean;
  status: number | undefined;
  retryAfterMs: number | undefined;
  message: string;
  /** The request no longer fits the model's context window: the agent's run ends there, no retry. */
  contextOverflow?: boolean;
}

const isAbort = (err: unknown) =>
  err instanceof OpenAI.APIUserAbortError || err instanceof Anthropic.APIUserAbortError || (err instanceof Error && err.name === 'AbortError');

/**
 * Sorts a failed call: connection errors, timeouts, 408, 409, 429 and 5xx are worth retrying
 * (unless the server says `x-should-retry: false`); other 4xx are not. Undefined for errors that
 * are not API failures at all (aborts, bugs), which propagate unchanged.
 */
export function classifyFailure(err: unknown): FailureClass | undefined {
  if (isAbort(err)) return undefined;
  if (err instanceof EmptyResponseError) return { retryable: true, status: undefined, retryAfterMs: undefined, message: err.message };
  if (err instanceof OpenAI.APIError || err instanceof Anthropic.APIError) {
    const status = err.status;
    const headers = err.headers as HeaderSource | undefined;
    const message = describeApiError(err);
    if (status === undefined) return { retryable: true, status, retryAfterMs: undefined, message };
    const hint = headers?.get('x-should-retry');
    // An exhausted quota also comes as 429, but no wait refills it.
    const kind = [(err as { code?: unknown }).code, (err as { type?: unknown }).type];
    const nested = (err.error as { error?: { type?: unknown; code?: unknown } } | undefined)?.error;
    if (isContextOverflow(status, [...kind, nested?.type, nested?.code], message)) {
      return { retryable: false, status, retryAfterMs: undefined, message, contextOverflow: true };
    }
    if (status === 429 && kind.includes('insufficient_quota')) return { retryable: false, status, retryAfterMs: undefined, message };
    const retryable = hint === 'true' ? true : hint === 'false' ? false : status === 408 || status === 409 || status === 429 || status >= 500;
    return { retryable, status, retryAfterMs: retryAfterMs(headers), message };
  }
  return undefined;
}

export interface RetryContext {
  /** Names the model in logs and errors. */
  model: string;
  policy: RetryPolicy;
  logger?: Logger;
  signal?: AbortSignal;
  /** Injectable for tests of the jitter; defaults to Math.random. */
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds, a failure is not retryable, or the retry count or time budget
 * runs out; then throws `ModelApiError`. The wait before a retry is the jittered backoff, or the
 * server's Retry-After when that is longer.
 */
export async function withRetries<T>(attempt: () => Promise<T>, ctx: RetryContext): Promise<T> {
  const started = Date.now();
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      const failure = classifyFailure(err);
      if (!failure) throw err;
      const what = failure.status === undefined ? failure.message : `HTTP ${failure.status}: ${failure.message}`;
      if (failure.contextOverflow) throw new ContextOverflowError(`${ctx.model}: ${what}`, failure.status);
      if (!failure.retryable) {
        throw new ModelApiError(`${ctx.model}: ${what} (not retryable)`, failure.status, tries);
      }
      if (tries > ctx.policy.maxRetries) {
        throw new ModelApiError(`${ctx.model}: ${what}; gave up after ${tries} attempts`, failure.status, tries);
      }
      const wait = Math.max(failure.retryAfterMs ?? 0, backoffMs(tries, ctx.policy, ctx.random));
      const elapsed = Date.now() - started;
      if (elapsed + wait > ctx.policy.maxTotalMs) {
        throw new ModelApiError(
          `${ctx.model}: ${what}; gave up after ${tries} attempts (next wait ${Math.round(wait)} ms would pass the ${ctx.policy.maxTotalMs} ms retry budget)`,
          failure.status,
          tries,
        );
      }
      ctx.logger?.warn(
        {
          model: ctx.model,
          attempt: tries,
          status: failure.status,
          retryAfterMs: failure.retryAfterMs,
          delayMs: Math.round(wait),
          error: failure.message,
        },
        'model API call failed; retrying',
      );
      await sleep(wait, undefined, { signal: ctx.signal });
    }
  }
}
