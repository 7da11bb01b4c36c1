import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../core/errors.js';
import type { Usage } from '../core/model.js';

/** US dollars per million tokens. */
export interface ModelPrice {
  /** Plain (uncached) input. */
  input: number;
  output: number;
  /** Input read from the provider's prompt cache. */
  cacheRead: number;
  /** Input written to the prompt cache (Anthropic bills it above plain input; OpenAI at the input price). */
  cacheWrite: number;
  /** Rates for the whole request once its prompt is over `over` tokens (cache reads and writes included). */
  longPrompt?: Omit<ModelPrice, 'longPrompt'> & { over: number };
}

type Rates = Pick<ModelPrice, 'input' | 'output'> & Partial<Pick<ModelPrice, 'cacheRead' | 'cacheWrite'>>;
/** A price as written in the table or a price file: the cache rates may be left to the provider's rule. */
export type PriceEntry = Rates & { longPrompt?: Rates & { over: number } };

/**
 * List prices of well-known models, USD per million tokens, as the providers published them. OpenAI's cached input
 * is each model's documented rate; Anthropic's cache rates follow its rule (see `cacheRates`). Prices change: override
 * them with a price file. Reasoning tokens bill as output.
 */
export const BUILTIN_PRICES: Readonly<Record<string, PriceEntry>> = {
  'openai/gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'openai/gpt-5.1': { input: 1.25, output: 10, cacheRead: 0.125 },
  'openai/gpt-5-codex': { input: 1.25, output: 10, cacheRead: 0.125 },
  'openai/gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'openai/gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'openai/gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 },
  'openai/gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025 },
  'openai/gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'openai/gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'openai/o1': { input: 15, output: 60, cacheRead: 7.5 },
  'openai/o3': { input: 2, output: 8, cacheRead: 0.5 },
  'openai/o3-mini': { input: 1.1, output: 4.4, cacheRead: 0.55 },
  'openai/o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  'anthropic/claude-opus-5-5': { input: 4, output: 20 },
  'anthropic/claude-sonnet-5-5': { input: 2, output: 10 },
  // Claude Code's default small model for side requests; a prompt over 100,000 tokens bills at 5x.
  'anthropic/claude-haiku-5-5': { input: 0.1, output: 0.5, longPrompt: { over: 100_000, input: 0.5, output: 2.5 } },
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

/** OpenAI's cached-input share of the input price by model family, for a model whose own rate is not written down. */
function openaiCachedShare(name: string): number {
  if (/^gpt-5/.test(name)) return 0.1;
  if (/^(gpt-4\.1|o4-mini|o3$|o3-\d)/.test(name)) return 0.25;
  return 0.5;
}

/**
 * The cache rates a price entry leaves out, by the provider's rule: Anthropic reads at 0.1× input and writes (5-minute
 * cache) at 1.25×; OpenAI reads at the model family's cached rate and charges no write surcharge; any other server's
 * cached tokens are billed as plain input, since nothing says they are cheaper.
 */
export function cacheRates(spec: string, entry: PriceEntry): ModelPrice {
  const rates = ratesWithCache(spec, entry);
  if (!entry.longPrompt) return rates;
  return { ...rates, longPrompt: { ...ratesWithCache(spec, entry.longPrompt), over: entry.longPrompt.over } };
}

function ratesWithCache(spec: string, entry: Rates): Omit<ModelPrice, 'longPrompt'> {
  // Rates are cents and fractions of them: rounding keeps 3 × 0.1 from printing as 0.30000000000000004.
  const times = (share: number) => Math.round(entry.input * share * 1e6) / 1e6;
  const slash = spec.indexOf('/');
  const provider = spec.slice(0, slash);
  const name = spec.slice(slash + 1);
  const rule =
    provider === 'anthropic'
      ? { cacheRead: times(0.1), cacheWrite: times(1.25) }
      : provider === 'openai' || provider === 'openai-responses'
        ? { cacheRead: times(openaiCachedShare(name)), cacheWrite: entry.input }
        : { cacheRead: entry.input, cacheWrite: entry.input };
  return { input: entry.input, output: entry.output, cacheRead: entry.cacheRead ?? rule.cacheRead, cacheWrite: entry.cacheWrite ?? rule.cacheWrite };
}

const rates = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});
const price = rates.extend({ longPrompt: rates.extend({ over: z.number().int().positive() }).optional() });

/**
 * A price file: `{ "openai/gpt-5": { "input": 1.25, "output": 10, "cacheRead": 0.125 }, ... }` (USD per million
 * tokens; `cacheRead` and `cacheWrite` default to the provider's rule). `longPrompt: { "over": 100000, "input": …,
 * "output": … }` gives the rates of a request whose prompt is longer.
 */
export const PriceFileSchema = z.record(z.string().regex(/^[a-z-]+\/.+$/, 'keys are PROVIDER/NAME model specs'), price);

/** `gpt-4o-2024-08-06` → `gpt-4o`, `claude-sonnet-4-20250514` → `claude-sonnet-4`, `-latest` and `-0` too. */
function baseModel(name: string): string {
  return name.replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|latest|0)$/, '');
}

/** What the providers' batch APIs bill (OpenAI's Batch API, Anthropic's Message Batches): half the table price, for everything. */
export const BATCH_DISCOUNT = 0.5;

/** How a request was sent, where that changes its price. */
export interface Billing {
  /** Sent through the provider's batch API. */
  batch?: boolean;
}

export class PriceTable {
  private readonly entries: Readonly<Record<string, PriceEntry>>;
  private readonly prices: ReadonlyMap<string, ModelPrice>;

  constructor(entries: Readonly<Record<string, PriceEntry>> = BUILTIN_PRICES) {
    this.entries = entries;
    this.prices = new Map(Object.entries(entries).map(([spec, entry]) => [spec, cacheRates(spec, entry)]));
  }

  /** This table with `overrides` on top (an override without cache rates gets its provider's rule, not the old ones). */
  with(overrides: Readonly<Record<string, PriceEntry>>): PriceTable {
    return new PriceTable({ ...this.entries, ...overrides });
  }

  /**
   * The price of a model spec; null when unknown. Scripted models cost 0 unless the table prices one (a price file may
   * give `scripted/POLICY` a real model's rates, to rehearse what a run would cost).
   */
  lookup(spec: string): ModelPrice | null {
    const exact = this.prices.get(spec);
    if (exact) return exact;
    if (spec.startsWith('scripted/')) return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    const slash = spec.indexOf('/');
    const provider = spec.slice(0, slash);
    // The same OpenAI model costs the same through either of its APIs.
    if (provider === 'openai-responses') return this.lookup(`openai/${spec.slice(slash + 1)}`);
    // Dated snapshots share their family's price; other servers' names mean nothing here.
    if (provider !== 'openai' && provider !== 'anthropic') return null;
    return this.prices.get(`${provider}/${baseModel(spec.slice(slash + 1))}`) ?? null;
  }

  /**
   * Dollars for `usage` as the provider bills it, or null when the price is unknown (never a silent zero): plain input
   * (input less cache reads and writes) at the input price, cache reads and writes at theirs, output at the output price.
   * A batch request costs that times BATCH_DISCOUNT.
   */
  cost(
    spec: string,
    usage: Pick<Usage, 'inputTokens' | 'outputTokens'> & Partial<Pick<Usage, 'cacheReadTokens' | 'cacheWriteTokens'>>,
    billing: Billing = {},
  ): number | null {
    const found = this.lookup(spec);
    if (!found) return null;
    const p = found.longPrompt && usage.inputTokens > found.longPrompt.over ? found.longPrompt : found;
    const read = usage.cacheReadTokens ?? 0;
    const write = usage.cacheWriteTokens ?? 0;
    const plain = Math.max(0, usage.inputTokens - read - write);
    const listed = (plain * p.input + read * p.cacheRead + write * p.cacheWrite + usage.outputTokens * p.output) / 1_000_000;
    return billing.batch ? listed * BATCH_DISCOUNT : listed;
  }
}

/** The model whose prices a model's token use is billed at: a scripted model's stand-in when it has one, else itself. */
export function billedModel(spec: string, scriptedPriceAs?: string): string {
  return scriptedPriceAs && spec.trim().startsWith('scripted/') ? scriptedPriceAs : spec;
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
      'write it as { "PROVIDER/NAME": { "input": USD_PER_MTOK, "output": USD_PER_MTOK, "cacheRead"?: ..., "cacheWrite"?: ... } }',
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
