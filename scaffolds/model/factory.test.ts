import { describe, expect, it } from 'vitest';
import { formatError, UserError } from '../../core/errors.js';
import { createModelClient } from './factory.js';
import { parseModelSpec } from './spec.js';

function oneLine(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    return formatError(err);
  }
  throw new Error('expected a UserError');
}

describe('parseModelSpec', () => {
  it('splits at the first slash, keeping slashes in the name', () => {
    expect(parseModelSpec('openai-compatible/Qwen/Qwen3-8B')).toEqual({
      provider: 'openai-compatible',
      name: 'Qwen/Qwen3-8B',
      spec: 'openai-compatible/Qwen/Qwen3-8B',
    });
  });

  it('refuses specs without a provider, unknown providers and empty names', () => {
    expect(oneLine(() => parseModelSpec('gpt-5'))).toMatch(/"gpt-5" is not PROVIDER\/NAME/);
    expect(oneLine(() => parseModelSpec('google/gemini'))).toMatch(/unknown model provider "google"/);
    expect(oneLine(() => parseModelSpec('openai/'))).toMatch(/no usable name/);
  });
});

describe('createModelClient', () => {
  it('names the missing key variable', () => {
    expect(oneLine(() => createModelClient('openai/gpt-5', { env: {} }))).toMatch(/OPENAI_API_KEY is not set/);
    expect(oneLine(() => createModelClient('anthropic/claude-sonnet-4-5', { env: {} }))).toMatch(/ANTHROPIC_API_KEY is not set/);
  });

  it('builds provider clients when the key is there', () => {
    expect(createModelClient('openai/gpt-5', { env: { OPENAI_API_KEY: 'sk-test' } }).name).toBe('openai/gpt-5');
    expect(createModelClient('anthropic/claude-sonnet-4-5', { env: { ANTHROPIC_API_KEY: 'k' } }).name).toBe('anthropic/claude-sonnet-4-5');
  });

  it('wants --base-url for openai-compatible models, and a real one', () => {
    expect(oneLine(() => createModelClient('openai-compatible/llama3', { env: {} }))).toMatch(/needs --base-url/);
    expect(oneLine(() => createModelClient('openai-compatible/llama3', { baseUrl: 'localhost:8000' }))).toMatch(/http/);
    expect(createModelClient('openai-compatible/llama3', { baseUrl: 'http://127.0.0.1:11434/v1' }).name).toBe('openai-compatible/llama3');
  });

  it('refuses a scripted model without the server, and an unknown policy', () => {
    expect(oneLine(() => createModelClient('scripted/honest'))).toMatch(/local model server/);
    expect(oneLine(() => createModelClient('scripted/no-such-policy'))).toMatch(/unknown scripted policy 'no-such-policy'[\s\S]*honest/);
  });

  it('checks generation options', () => {
    const env = { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' };
    expect(oneLine(() => createModelClient('openai/gpt-5', { env, defaults: { temperature: 3 } }))).toMatch(/temperature/);
    expect(oneLine(() => createModelClient('openai/gpt-5', { env, defaults: { maxTokens: 0 } }))).toMatch(/max tokens/);
    expect(oneLine(() => createModelClient('anthropic/claude-sonnet-4-5', { env, defaults: { thinkingBudget: 100 } }))).toMatch(/1024/);
    expect(oneLine(() => createModelClient('anthropic/claude-sonnet-4-5', { env, defaults: { thinkingBudget: 2048, maxTokens: 1000 } }))).toMatch(
      /exceed the thinking budget/,
    );
    expect(oneLine(() => createModelClient('anthropic/claude-sonnet-4-5', { env, defaults: { thinkingBudget: 2048, temperature: 0 } }))).toMatch(
      /temperature 1/,
    );
  });
});
