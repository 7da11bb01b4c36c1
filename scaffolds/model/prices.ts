import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../../core/errors.js';
import type { Usage } from '../../core/model.js';

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
}

/**
 * List prices of well-known models, USD per million tokens, as the providers published them.
 * Prices change: override them with a price file. Reasoning tokens bill as output. Prompt-cache
 * discounts are not applied, so with caching the figure is an upper bound.
 */
export const BUILTIN_PRICES: Readonly<Record<string, ModelPrice>> = {
  'openai/gpt-5': { input: 1.25, output: 10 },
  'openai/gpt-5.1': { input: 1.25, output: 10 },
  'openai/gpt-5-codex': { input: 1.25, output: 10 },
  'openai/gpt-5-mini': { input: 0.25, output: 2 },
  'openai/gpt-5-nano': { input: 0.05, output: 0.4 },
  'openai/gpt-4.1': { input: 2, output: 8 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'openai/gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'openai/gpt-4o': { input: 2.5, output: 10 },
  'openai/gpt-4o-mini': { input: 0.15, output: 0.6 },
  'openai/o1': { input: 15, output: 60 },
  'openai/o3': { input: 2, output: 8 },
  'openai/o3-mini': { input: 1.1, output: 4.4 },
  'openai/o4-mini': { input: 1.1, output: 4.4 },
  'anthropic/claude-opus-4-5': { input: 5, output: 25 },
  'anthropic/claude-opus-4-1': { input: 15, output: 75 },
  'anthropic/claude-opus-4': { input: 15, output: 75 },
  'anthropic/claude-sonnet-4-5': { input: 3, output: 15 },
  'anthropic/claude-sonnet-4': { input: 3, output: 15 },
  'anthropic/claude-3-7-sonnet': { input: 3, output: 15 },
  'anthropic/claude-3-5-sonnet': { input: 3, output: 15 },
  'anthropic/claude-haiku-4-5': { input: 1, output: 5 },
  'anthropic/claude-3-5-haiku': { input: 0.8, output: 4 },
};

const price = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
});

/** A price file: `{ "openai/gpt-5": { "input": 1.25, "output": 10 }, ... }` (USD per million tokens). */
export const PriceFileSchema = z.record(z.string().regex(/^[a-z-]+\/.+$/, 'keys are PROVIDER/NAME model specs'), price);

/** `gpt-4o-2024-08-06` → `gpt-4o`, `claude-sonnet-4-20250514` → `claude-sonnet-4`, `-latest` and `-0` too. */
function baseModel(name: string): string {
  return name.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest|0)$/, '');
}

export class PriceTable {
  private readonly prices: ReadonlyMap<string, ModelPrice>;

  constructor(entries: Readonly<Record<string, ModelPrice>> = BUILTIN_PRICES) {
    this.prices = new Map(Object.entries(entries));
  }

  /** This table with `overrides` on top. */
  with(overrides: Readonly<Record<string, ModelPrice>>): PriceTable {
    return new PriceTable({ ...Object.fromEntries(this.prices), ...overrides });
  }

  /** The price of a model spec; 0 for scripted models; null when unknown. */
  lookup(spec: string): ModelPrice | null {
    if (spec.startsWith('scripted/')) return { input: 0, output: 0 };
    const exact = this.prices.get(spec);
    if (exact) return exact;
    const slash = spec.indexOf('/');
    const provider = spec.slice(0, slash);
    // The same OpenAI model costs the same through either of its APIs.
    if (provider === 'openai-responses') return this.lookup(`openai/${spec.slice(slash + 1)}`);
    // Dated snapshots share their family's price; other servers' names mean nothing here.
    if (provider !== 'openai' && provider !== 'anthropic') return null;
    return this.prices.get(`${provider}/${baseModel(spec.slice(slash + 1))}`) ?? null;
  }

  /** Dollars for `usage`, or null when the price is unknown (never a silent zero). */
  cost(spec: string, usage: Pick<Usage, 'inputTokens' | 'outputTokens'>): number | null {
    const p = this.lookup(spec);
    if (!p) return null;
    return (usage.inputTokens * p.input + usage.outputTokens * p.output) / 1_000_000;
  }
}

/** Reads a price file and returns the built-in table with its entries on top. */
export function loadPriceFile(path: string, base: PriceTable = new PriceTable()): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`price file ${path} does not exist`);
    throw new UserError(`price file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = PriceFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map((p, i) => (i === 0 ? JSON.stringify(p) : String(p))).join('.') || '(top level)';
    // A bad key's reason sits one level down.
    const message = issue?.code === 'invalid_key' ? issue.issues[0]?.message : issue?.message;
    throw new UserError(
      `price file ${path}: ${where}: ${message ?? 'invalid'}`,
      'write it as { "PROVIDER/NAME": { "input": USD_PER_MTOK, "output": USD_PER_MTOK } }',
    );
  }
  return base.with(parsed.data);
}

/** The environment variable that names a price file applied to every client. */
export const PRICES_ENV = 'IMPOSSIBLEBENCH_PRICES';

const fromEnv = new Map<string, PriceTable>();
const builtin = new PriceTable();

/** The built-in table, with the file named by IMPOSSIBLEBENCH_PRICES on top when set (read once per path). */
export function defaultPrices(env: Record<string, string | undefined> = process.env): PriceTable {
  const path = env[PRICES_ENV]?.trim();
  if (!path) return builtin;
  let table = fromEnv.get(path);
  if (!table) {
    table = loadPriceFile(path);
    fromEnv.set(path, table);
  }
  return table;
}
