import { describe, expect, it } from 'vitest';
import { formatError, UserError } from '../core/errors.js';
import { createModelClient } from './factory.js';
import { onlyOnResponses, parseModelSpec } from './spec.js';

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

  it('takes openai-responses/NAME', () => {
    expect(parseModelSpec('openai-responses/gpt-5')).toEqual({ provider: 'openai-responses', name: 'gpt-5', spec: 'openai-responses/gpt-5' });
  });

  it('refuses specs without a provider, unknown providers and empty names', () => {
    expect(oneLine(() => parseModelSpec('gpt-5'))).toMatch(/"gpt-5" is not PROVIDER\/NAME/);
    expect(oneLine(() => parseModelSpec('google/gemini'))).toMatch(/unknown model provider "google"/);
    expect(oneLine(() => parseModelSpec('openai/'))).toMatch(/no usable name/);
  });
});

describe('onlyOnResponses', () => {
  it('names the models OpenAI serves only through the Responses API: every codex model, and the pro ones', () => {
    for (const name of [
      'gpt-5-codex',
      'gpt-5.1-codex-mini',
      'gpt-5.1-codex-max',
      'codex-mini-latest',
      'o3-pro',
      'gpt-5-pro-2025-10-06',
      'o3-deep-research',
    ]) {
      expect(onlyOnResponses(name), name).toBe(true);
    }
    for (const name of ['gpt-5', 'gpt-5-mini', 'gpt-4o', 'o3', 'o4-mini', 'o1-preview', 'gpt-4.1-nano'])
      expect(onlyOnResponses(name), name).toBe(false);
  });
});

describe('createModelClient', () => {
  it('names the missing key variable', () => {
    expect(oneLine(() => createModelClient('openai/gpt-5', { env: {} }))).toMatch(/OPENAI_API_KEY is not set/);
    expect(oneLine(() => createModelClient('anthropic/claude-sonnet-4-5', { env: {} }))).toMatch(/ANTHROPIC_API_KEY is not set/);
    expect(oneLine(() => createModelClient('openai-responses/gpt-5', { env: {} }))).toMatch(/OPENAI_API_KEY is not set/);
    expect(oneLine(() => createModelClient('openai/gpt-5-codex', { env: {} }))).toMatch(/OPENAI_API_KEY is not set/);
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

  it('serves a scripted model only through a provider another room registers', () => {
    expect(oneLine(() => createModelClient('scripted/honest'))).toMatch(/local model server, which this program has not loaded/);
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

describe('a client says where its model answers each API, for an agent program behind the proxy', () => {
  const env = { OPENAI_API_KEY: 'sk-openai', ANTHROPIC_API_KEY: 'sk-ant', OPENAI_COMPATIBLE_API_KEY: 'sk-local' };

  it('openai/ answers both OpenAI APIs at its base URL as the SDK holds it (with /v1 and any prefix), with its real key and model name', () => {
    const chat = createModelClient('openai/gpt-5', { env });
    expect(chat.endpoint?.('openai-responses')).toEqual({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai', model: 'gpt-5' });
    expect(chat.endpoint?.('openai-chat')?.baseUrl).toBe('https://api.openai.com/v1');
    expect(chat.endpoint?.('anthropic')).toBeUndefined();
    const codex = createModelClient('openai/gpt-5-codex', { env, baseUrl: 'http://127.0.0.1:9000/v1/' });
    expect(codex.endpoint?.('openai-responses')).toEqual({ baseUrl: 'http://127.0.0.1:9000/v1', apiKey: 'sk-openai', model: 'gpt-5-codex' });
    const gateway = createModelClient('openai/gpt-5', { env, baseUrl: 'https://gateway.example/openai/v1' });
    expect(gateway.endpoint?.('openai-chat')?.baseUrl).toBe('https://gateway.example/openai/v1');
  });

  it("carries OpenAI's organization and project as the SDK sends them, for the proxy to add with the key", () => {
    const scoped = createModelClient('openai/gpt-5-codex', { env: { ...env, OPENAI_ORG_ID: 'org-1', OPENAI_PROJECT_ID: 'proj-2' } });
    expect(scoped.endpoint?.('openai-responses')?.headers).toEqual({ 'openai-organization': 'org-1', 'openai-project': 'proj-2' });
    expect(createModelClient('openai/gpt-5', { env }).endpoint?.('openai-chat')?.headers).toBeUndefined();
  });

  it('anthropic/ answers Messages only; openai-compatible/ Chat Completions only', () => {
    const claude = createModelClient('anthropic/claude-sonnet-4-5', { env });
    expect(claude.endpoint?.('anthropic')).toEqual({ baseUrl: 'https://api.anthropic.com', apiKey: 'sk-ant', model: 'claude-sonnet-4-5' });
    expect(claude.endpoint?.('openai-responses')).toBeUndefined();
    const local = createModelClient('openai-compatible/Qwen/Qwen3-8B', { env, baseUrl: 'http://127.0.0.1:8000/v1' });
    expect(local.endpoint?.('openai-chat')).toEqual({ baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'sk-local', model: 'Qwen/Qwen3-8B' });
    expect(local.endpoint?.('openai-responses')).toBeUndefined();
  });
});
