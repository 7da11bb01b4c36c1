import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { backoffMs, classifyFailure, DEFAULT_RETRY, retryAfterMs, withRetries } from './retry.js';
import { captureLogger } from './testing/logger.js';
import { ModelApiError } from '../core/model.js';

const headers = (h: Record<string, string>) => new Headers(h);

describe('retryAfterMs', () => {
  it('reads seconds, fractional seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(7000);
    // A date already past means "now", never a negative wait.
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-4' }))).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from the base, stays within [half, full] of the step, and is capped', () => {
    const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffMs(1, policy, () => 0)).toBe(50);
    expect(backoffMs(1, policy, () => 0.999999)).toBeCloseTo(100, 3);
    expect(backoffMs(3, policy, () => 0)).toBe(200);
    expect(backoffMs(3, policy, () => 1)).toBe(400);
    expect(backoffMs(10, policy, () => 1)).toBe(1000);
    expect(backoffMs(10, policy, () => 0)).toBe(500);
  });
});

describe('classifyFailure', () => {
  it('retries 408, 409, 429 and 5xx from either SDK, not other 4xx', () => {
    for (const status of [408, 409, 429, 500, 503, 529]) {
      expect(classifyFailure(OpenAI.APIError.generate(status, {}, 'x', headers({})))?.retryable).toBe(true);
      expect(classifyFailure(Anthropic.APIError.generate(status, {}, 'x', headers({})))?.retryable).toBe(true);
    }
    for (const status of [400, 401, 403, 404, 422]) {
      expect(classifyFailure(OpenAI.APIError.generate(status, {}, 'x', headers({})))?.retryable).toBe(false);
      expect(classifyFailure(Anthropic.APIError.generate(status, {}, 'x', headers({})))?.retryable).toBe(false);
    }
  });

  it('does not wait for an exhausted quota, though it comes as 429', () => {
    const quota = OpenAI.APIError.generate(
      429,
      { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } },
      undefined,
      headers({}),
    );
    expect(classifyFailure(quota)).toMatchObject({ retryable: false, status: 429, message: 'You exceeded your current quota' });
  });

  it('lets the server overrule with x-should-retry', () => {
    expect(classifyFailure(OpenAI.APIError.generate(500, {}, 'x', headers({ 'x-should-retry': 'false' })))?.retryable).toBe(false);
    expect(classifyFailure(OpenAI.APIError.generate(400, {}, 'x', headers({ 'x-should-retry': 'true' })))?.retryable).toBe(true);
  });

  it('retries connection failures and timeouts', () => {
    expect(classifyFailure(new OpenAI.APIConnectionError({ message: 'reset' }))).toMatchObject({ retryable: true, status: undefined });
    expect(classifyFailure(new Anthropic.APIConnectionTimeoutError())).toMatchObject({ retryable: true });
  });

  it('leaves aborts and programming errors alone', () => {
    expect(classifyFailure(new OpenAI.APIUserAbortError())).toBeUndefined();
    expect(classifyFailure(new TypeError('bug'))).toBeUndefined();
  });
});

describe('withRetries', () => {
  const policy = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5, maxTotalMs: 60_000 };

  it('returns the first success, logging each retry', async () => {
    const { logger, lines } = captureLogger();
    let calls = 0;
    const value = await withRetries(
      async () => {
        calls++;
        if (calls < 3) throw OpenAI.APIError.generate(503, {}, 'busy', headers({}));
        return 'ok';
      },
      { model: 'openai/x', policy, logger },
    );
    expect(value).toBe('ok');
    expect(calls).toBe(3);
    expect(lines.filter((l) => l.msg === 'model API call failed; retrying').map((l) => l.attempt)).toEqual([1, 2]);
  });

  it('gives up at once when the wait a server asks for would pass the time budget', async () => {
    let calls = 0;
    const err = await withRetries(
      async () => {
        calls++;
        throw OpenAI.APIError.generate(429, {}, 'slow down', headers({ 'retry-after': '3600' }));
      },
      { model: 'openai/x', policy: { ...policy, maxTotalMs: 5_000 } },
    ).catch((e: unknown) => e);
    expect(calls).toBe(1);
    expect(err).toBeInstanceOf(ModelApiError);
    expect((err as ModelApiError).message).toMatch(/retry budget/);
    expect(err).toMatchObject({ status: 429, attempts: 1 });
  });

  it('passes non-API errors through untouched', async () => {
    const bug = new TypeError('bug');
    await expect(withRetries(async () => Promise.reject(bug), { model: 'm', policy })).rejects.toBe(bug);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = withRetries(
      async () => {
        throw OpenAI.APIError.generate(429, {}, 'x', headers({ 'retry-after': '30' }));
      },
      { model: 'm', policy, signal: controller.signal },
    );
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
