import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../core/errors.js';
import { BATCH_DISCOUNT, loadPriceFile, PriceTable } from './prices.js';

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
    // A price file's entry keeps OpenAI's cache rule: gpt-5's cached input at a tenth.
    expect(table.with({ 'openai-responses/gpt-5': { input: 1, output: 1 } }).lookup('openai-responses/gpt-5')).toEqual({
      input: 1,
      output: 1,
      cacheRead: 0.1,
      cacheWrite: 1,
    });
  });

  it('answers null for unknown models, never zero', () => {
    expect(table.cost('openai/gpt-99-turbo', usage)).toBeNull();
    expect(table.cost('openai-compatible/gpt-4o', usage)).toBeNull();
    expect(table.cost('openai-compatible/Qwen/Qwen3-8B', usage)).toBeNull();
  });

  it('prices scripted models at zero, unless the table gives one a price', () => {
    expect(table.cost('scripted/honest', usage)).toBe(0);
    const priced = table.with({ 'scripted/honest': { input: 1.25, output: 10 } });
    // 2M input at $1.25 and 500k output at $10 per million.
    expect(priced.cost('scripted/honest', usage)).toBeCloseTo(7.5);
    expect(priced.cost('scripted/cheat', usage)).toBe(0);
  });

  it('bills a batch request at half the table price, cache tiers and long prompts included, and an unknown model still at null', () => {
    expect(BATCH_DISCOUNT).toBe(0.5);
    expect(table.cost('openai/gpt-4o', usage, { batch: true })).toBeCloseTo((2 * 2.5 + 0.5 * 10) / 2);
    const cached = { ...usage, cacheReadTokens: 1_000_000, cacheWriteTokens: 500_000 };
    expect(table.cost('anthropic/claude-sonnet-4-5', cached, { batch: true })).toBeCloseTo(table.cost('anthropic/claude-sonnet-4-5', cached)! / 2);
    expect(table.cost('anthropic/claude-haiku-5-5', usage, { batch: true })).toBeCloseTo((2 * 0.5 + 0.5 * 2.5) / 2);
    expect(table.cost('openai/gpt-99-turbo', usage, { batch: true })).toBeNull();
  });
});

describe('prompt-cache prices', () => {
  const table = new PriceTable();
  // 1M input tokens of which 600k were read from the cache and 300k written to it, 100k output.
  const cached = { inputTokens: 1_000_000, cacheReadTokens: 600_000, cacheWriteTokens: 300_000, outputTokens: 100_000 };

  it('bills a whole request at the long-prompt rates once its prompt, cache included, is over the threshold', () => {
    const haiku = 'anthropic/claude-haiku-5-5';
    expect(table.lookup(haiku)).toMatchObject({
      input: 0.1,
      cacheRead: 0.01,
      cacheWrite: 0.125,
      longPrompt: { over: 100_000, input: 0.5, cacheWrite: 0.625 },
    });
    const at = { inputTokens: 100_000, cacheReadTokens: 60_000, outputTokens: 1_000 };
    expect(table.cost(haiku, at)).toBeCloseTo((40_000 * 0.1 + 60_000 * 0.01 + 1_000 * 0.5) / 1e6, 12);
    const over = { ...at, inputTokens: 100_001 };
    expect(table.cost(haiku, over)).toBeCloseTo((40_001 * 0.5 + 60_000 * 0.05 + 1_000 * 2.5) / 1e6, 12);
  });

  it('bills Anthropic reads at 0.1× input and 5-minute writes at 1.25×', () => {
    expect(table.lookup('anthropic/claude-sonnet-4-5')).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(table.cost('anthropic/claude-sonnet-4-5', cached)).toBeCloseTo(0.1 * 3 + 0.6 * 0.3 + 0.3 * 3.75 + 0.1 * 15, 10);
    expect(table.lookup('anthropic/claude-opus-4-5')).toMatchObject({ cacheRead: 0.5, cacheWrite: 6.25 });
  });

  it("bills OpenAI cached input at each model's documented rate and writes as plain input", () => {
    expect(table.lookup('openai/gpt-5')).toEqual({ input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 });
    expect(table.lookup('openai/gpt-4.1-mini')).toMatchObject({ cacheRead: 0.1 });
    expect(table.lookup('openai/gpt-4o')).toMatchObject({ cacheRead: 1.25 });
    expect(table.lookup('openai/o4-mini')).toMatchObject({ cacheRead: 0.275 });
    const reads = { inputTokens: 1_000_000, cacheReadTokens: 800_000, outputTokens: 0 };
    expect(table.cost('openai/gpt-5', reads)).toBeCloseTo(0.2 * 1.25 + 0.8 * 0.125, 10);
    // A dated snapshot gets its family's cache rate too.
    expect(table.cost('openai/gpt-5-2025-08-07', reads)).toBe(table.cost('openai/gpt-5', reads));
  });

  it('bills every input token at the input price when nothing came from the cache', () => {
    const plain = { inputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
    expect(table.cost('anthropic/claude-sonnet-4-5', plain)).toBeCloseTo(3, 10);
    expect(table.cost('openai/gpt-5', { inputTokens: 1_000_000, outputTokens: 0 })).toBeCloseTo(1.25, 10);
  });

  it('gives an entry without cache rates its provider rule, and any other server none', () => {
    const custom = new PriceTable().with({
      'openai/gpt-5-pro-x': { input: 10, output: 40 },
      'openai/gpt-4.1-x': { input: 4, output: 8 },
      'openai/o3-x': { input: 4, output: 8 },
      'anthropic/claude-next': { input: 2, output: 10 },
      'openai-compatible/qwen': { input: 1, output: 2 },
    });
    expect(custom.lookup('openai/gpt-5-pro-x')).toMatchObject({ cacheRead: 1, cacheWrite: 10 });
    expect(custom.lookup('openai/gpt-4.1-x')).toMatchObject({ cacheRead: 1 });
    expect(custom.lookup('openai/o3-x')).toMatchObject({ cacheRead: 2 });
    expect(custom.lookup('anthropic/claude-next')).toEqual({ input: 2, output: 10, cacheRead: 0.2, cacheWrite: 2.5 });
    expect(custom.lookup('openai-compatible/qwen')).toEqual({ input: 1, output: 2, cacheRead: 1, cacheWrite: 1 });
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
    expect(table.lookup('openai/gpt-4o')).toEqual({ input: 1, output: 2, cacheRead: 0.5, cacheWrite: 1 });
    expect(table.cost('openai-compatible/qwen', usage)).toBeCloseTo(0.2 + 0.1);
    expect(table.lookup('anthropic/claude-opus-4-1')).toEqual({ input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 });
  });

  it('takes cache rates from the file when it sets them', () => {
    const table = loadPriceFile(
      file('cache.json', JSON.stringify({ 'anthropic/claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.25, cacheWrite: 6 } })),
    );
    expect(table.lookup('anthropic/claude-sonnet-4-5')).toEqual({ input: 3, output: 15, cacheRead: 0.25, cacheWrite: 6 });
    const usage = { inputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 500_000, outputTokens: 0 };
    expect(table.cost('anthropic/claude-sonnet-4-5', usage)).toBeCloseTo(0.5 * 0.25 + 0.5 * 6, 10);
  });

  it('names the entry and field that are wrong', () => {
    const path = file('bad.json', JSON.stringify({ 'openai/gpt-4o': { input: 'cheap', output: 2 } }));
    expect(() => loadPriceFile(path)).toThrow(UserError);
    expect(() => loadPriceFile(path)).toThrow(/"openai\/gpt-4o"\.input: .*number/);
    expect(() => loadPriceFile(file('neg.json', '{"anthropic/x": {"input": -1, "output": 1}}'))).toThrow(/"anthropic\/x"\.input/);
    expect(() => loadPriceFile(file('key.json', '{"gpt-4o": {"input": 1, "output": 1}}'))).toThrow(/PROVIDER\/NAME/);
    expect(() => loadPriceFile(file('extra.json', '{"openai/a": {"input": 1, "output": 1, "cached": 1}}'))).toThrow(/"openai\/a"/);
    expect(() => loadPriceFile(file('read.json', '{"openai/a": {"input": 1, "output": 1, "cacheRead": "low"}}'))).toThrow(
      /"openai\/a"\.cacheRead: .*number/,
    );
  });

  it('reads a long-prompt tier from the file, and names what is wrong in it', () => {
    const tiered = { 'openai-compatible/big': { input: 1, output: 2, longPrompt: { over: 1000, input: 3, output: 4 } } };
    const table = loadPriceFile(file('tier.json', JSON.stringify(tiered)));
    expect(table.cost('openai-compatible/big', { inputTokens: 2000, outputTokens: 0 })).toBeCloseTo((2000 * 3) / 1e6, 12);
    expect(() => loadPriceFile(file('tier-bad.json', '{"openai/a": {"input": 1, "output": 1, "longPrompt": {"input": 2, "output": 2}}}'))).toThrow(
      /"openai\/a"\.longPrompt\.over/,
    );
  });

  it('says when the file is missing or not JSON', () => {
    expect(() => loadPriceFile(join(dir, 'absent.json'))).toThrow(/does not exist/);
    expect(() => loadPriceFile(file('junk.json', '{oops'))).toThrow(/not valid JSON/);
  });
});
