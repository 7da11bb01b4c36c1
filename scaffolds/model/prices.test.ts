import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../core/errors.js';
import { loadPriceFile, PriceTable } from './prices.js';

const usage = { inputTokens: 2_000_000, outputTokens: 500_000 };

describe('PriceTable', () => {
  const table = new PriceTable();

  it('prices well-known models per million tokens', () => {
    expect(table.cost('openai/gpt-4o', usage)).toBeCloseTo(2 * 2.5 + 0.5 * 10);
    expect(table.cost('anthropic/claude-sonnet-4-5', usage)).toBeCloseTo(2 * 3 + 0.5 * 15);
  });

  it('gives dated snapshots and aliases their family price', () => {
    expect(table.lookup('openai/gpt-4o-2024-08-06')).toEqual(table.lookup('openai/gpt-4o'));
    expect(table.lookup('anthropic/claude-sonnet-4-20250514')).toEqual(table.lookup('anthropic/claude-sonnet-4'));
    expect(table.lookup('anthropic/claude-3-7-sonnet-latest')).toEqual(table.lookup('anthropic/claude-3-7-sonnet'));
  });

  it('prices an OpenAI model the same through the Responses API, unless a price file says otherwise', () => {
    expect(table.lookup('openai-responses/gpt-5-codex')).toEqual(table.lookup('openai/gpt-5-codex'));
    expect(table.lookup('openai-responses/gpt-4o-2024-08-06')).toEqual(table.lookup('openai/gpt-4o'));
    expect(table.lookup('openai-responses/gpt-99')).toBeNull();
    expect(table.with({ 'openai-responses/gpt-5': { input: 1, output: 1 } }).lookup('openai-responses/gpt-5')).toEqual({ input: 1, output: 1 });
  });

  it('answers null for unknown models, never zero', () => {
    expect(table.cost('openai/gpt-99-turbo', usage)).toBeNull();
    expect(table.cost('openai-compatible/gpt-4o', usage)).toBeNull();
    expect(table.cost('openai-compatible/Qwen/Qwen3-8B', usage)).toBeNull();
  });

  it('prices scripted models at zero', () => {
    expect(table.cost('scripted/honest', usage)).toBe(0);
  });
});

describe('loadPriceFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'prices-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('puts the file over the built-in table', () => {
    const table = loadPriceFile(
      file('ok.json', JSON.stringify({ 'openai/gpt-4o': { input: 1, output: 2 }, 'openai-compatible/qwen': { input: 0.1, output: 0.2 } })),
    );
    expect(table.lookup('openai/gpt-4o')).toEqual({ input: 1, output: 2 });
    expect(table.cost('openai-compatible/qwen', usage)).toBeCloseTo(0.2 + 0.1);
    expect(table.lookup('anthropic/claude-opus-4-1')).toEqual({ input: 15, output: 75 });
  });

  it('names the entry and field that are wrong', () => {
    const path = file('bad.json', JSON.stringify({ 'openai/gpt-4o': { input: 'cheap', output: 2 } }));
    expect(() => loadPriceFile(path)).toThrow(UserError);
    expect(() => loadPriceFile(path)).toThrow(/"openai\/gpt-4o"\.input: .*number/);
    expect(() => loadPriceFile(file('neg.json', '{"anthropic/x": {"input": -1, "output": 1}}'))).toThrow(/"anthropic\/x"\.input/);
    expect(() => loadPriceFile(file('key.json', '{"gpt-4o": {"input": 1, "output": 1}}'))).toThrow(/PROVIDER\/NAME/);
    expect(() => loadPriceFile(file('extra.json', '{"openai/a": {"input": 1, "output": 1, "cached": 1}}'))).toThrow(/"openai\/a"/);
  });

  it('says when the file is missing or not JSON', () => {
    expect(() => loadPriceFile(join(dir, 'absent.json'))).toThrow(/does not exist/);
    expect(() => loadPriceFile(file('junk.json', '{oops'))).toThrow(/not valid JSON/);
  });
});
