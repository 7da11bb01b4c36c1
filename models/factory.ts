import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { Logger } from 'pino';
import { UserError } from '../core/errors.js';
import { AnthropicMessagesClient } from './anthropic-client.js';
import { DEFAULT_TIMEOUT_MS, type ClientSettings } from './call.js';
import { providerLimiter } from './limits.js';
import { OpenAIChatClient } from './openai-client.js';
import { OpenAIResponsesClient } from './responses-client.js';
import { defaultPrices, type PriceTable } from './prices.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { onlyOnResponses, parseModelSpec, type ModelSpec, type Provider } from './spec.js';
import type { GenerateOptions, ModelClient } from '../core/model.js';

/**
 * How a client is asked for. A provider registered from another room (`scripted/`, by the simulated room) adds the
 * options it reads to this interface by declaration merging.
 */
export interface ModelClientOptions {
  logger?: Logger;
  /** Where API keys are read from. Default: process.env. */
  env?: Record<string, string | undefined>;
  /** Overrides OPENAI_API_KEY / ANTHROPIC_API_KEY / OPENAI_COMPATIBLE_API_KEY (the last one optional). */
  apiKey?: string;
  /** Required for `openai-compatible/`; optional elsewhere (a proxy in front of the provider). */
  baseUrl?: string;
  /** Generation options for every call that does not set its own: temperature, seed, max tokens, reasoning. */
  defaults?: Omit<GenerateOptions, 'signal'>;
  retry?: Partial<RetryPolicy>;
  /** Requests in flight at once for this provider, shared by all its clients in the process. */
  concurrency?: number;
  /** Per-request timeout. Default 10 minutes. */
  timeoutMs?: number;
  /** Default: the built-in table, with the file named by IMPOSSIBLEBENCH_PRICES on top. */
  prices?: PriceTable;
  /**
   * Ask for prompt caching: Anthropic `cache_control` breakpoints, OpenAI's `prompt_cache_key` (never sent to an
   * `openai-compatible/` server). Default true. OpenAI caches prompts whatever this says.
   */
  promptCache?: boolean;
}

/** What the factory hands a registered provider: the settings every client shares, and the SDKs' common options. */
export interface ClientParts {
  base: Omit<ClientSettings, 'limiter'>;
  sdkCommon: { maxRetries: number; timeout: number; logLevel: 'off' };
  promptCache: boolean;
}

/** Builds the client of a provider this room does not serve itself. */
export type ModelProvider = (spec: ModelSpec, parts: ClientParts, options: ModelClientOptions) => ModelClient;

const registered = new Map<Provider, ModelProvider>();

/**
 * Lets another room serve a provider's models: `scripted/` models run through the local model server, which this room
 * does not know; the simulated room registers them when it is loaded.
 */
export function registerModelProvider(provider: Provider, make: ModelProvider): void {
  registered.set(provider, make);
}

const KEY_VARS = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY', compatible: 'OPENAI_COMPATIBLE_API_KEY' } as const;

function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`--base-url "${url}" is not a URL`, 'give it as http://HOST:PORT/v1');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UserError(`--base-url "${url}" must be http:// or https://`);
  }
  return url.replace(/\/+$/, '');
}

function checkDefaults(spec: ModelSpec, d: ModelClientOptions['defaults'] = {}): void {
  if (d.temperature !== undefined && !(d.temperature >= 0 && d.temperature <= 2)) {
    throw new UserError(`temperature ${d.temperature} is outside 0..2`);
  }
  if (d.maxTokens !== undefined && !(Number.isInteger(d.maxTokens) && d.maxTokens > 0)) {
    throw new UserError(`max tokens ${d.maxTokens} is not a positive integer`);
  }
  if (d.seed !== undefined && !Number.isInteger(d.seed)) throw new UserError(`seed ${d.seed} is not an integer`);
  if (d.thinkingBudget !== undefined) {
    if (!(Number.isInteger(d.thinkingBudget) && d.thinkingBudget >= 1024)) {
      throw new UserError(`thinking budget ${d.thinkingBudget} must be an integer of at least 1024 tokens`);
    }
    if (d.maxTokens !== undefined && d.maxTokens <= d.thinkingBudget) {
      throw new UserError(`max tokens ${d.maxTokens} must exceed the thinking budget ${d.thinkingBudget}`);
    }
    if (spec.provider === 'anthropic' && d.temperature !== undefined && d.temperature !== 1) {
      throw new UserError('extended thinking runs only at temperature 1', 'drop the temperature or the thinking budget');
    }
  }
}

/**
 * Builds the client for a model spec:
 * - `openai/NAME`: Chat Completions, or the Responses API for the models OpenAI serves only there (codex models, see
 *   `onlyOnResponses`); key from OPENAI_API_KEY (or `apiKey`).
 * - `openai-responses/NAME`: the Responses API, for any OpenAI model; the same key and base URL as `openai/`.
 * - `anthropic/NAME`: Messages; key from ANTHROPIC_API_KEY (or `apiKey`).
 * - `openai-compatible/NAME`: Chat Completions at `baseUrl` (vLLM, Ollama, llama.cpp, LiteLLM); key optional,
 *   from OPENAI_COMPATIBLE_API_KEY (or `apiKey`), never from OPENAI_API_KEY.
 * - `scripted/POLICY`: built by the provider the simulated room registers (`registerModelProvider`): a real SDK client
 *   talking to the local model server.
 * Throws a UserError (one line) for a bad spec or a missing key or base URL.
 */
export function createModelClient(specText: string, options: ModelClientOptions = {}): ModelClient {
  const spec = parseModelSpec(specText);
  checkDefaults(spec, options.defaults);
  const env = options.env ?? process.env;
  const prices = options.prices ?? defaultPrices(env);
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const promptCache = options.promptCache ?? true;
  const base = {
    name: spec.spec,
    model: spec.name,
    retry,
    ...(options.logger ? { logger: options.logger.child({ model: spec.spec }) } : {}),
    defaults: options.defaults ?? {},
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    cost: (...[usage, billing]: Parameters<ClientSettings['cost']>) => prices.cost(spec.spec, usage, billing),
  };
  // The SDKs' own retries are off: ours are the only ones, so every retry is counted and logged.
  const sdkCommon = { maxRetries: 0, timeout: base.timeoutMs, logLevel: 'off' as const };

  switch (spec.provider) {
    case 'openai':
    case 'openai-responses':
    case 'openai-compatible': {
      const compatible = spec.provider === 'openai-compatible';
      if (compatible && !options.baseUrl) {
        throw new UserError(`model ${spec.spec} needs --base-url`, 'point it at the server, e.g. --base-url http://localhost:8000/v1');
      }
      const baseURL = options.baseUrl ? checkUrl(options.baseUrl) : undefined;
      // Never send the OpenAI key to some other server: a compatible server has its own variable.
      const apiKey = options.apiKey ?? (compatible ? env[KEY_VARS.compatible] : env[KEY_VARS.openai]) ?? undefined;
      if (!compatible && !apiKey) {
        throw new UserError(`model ${spec.spec} needs an API key: ${KEY_VARS.openai} is not set`, `export ${KEY_VARS.openai}=...`);
      }
      const sdk = new OpenAI({
        ...sdkCommon,
        apiKey: apiKey ?? 'unused',
        organization: compatible ? null : (env.OPENAI_ORG_ID ?? null),
        project: compatible ? null : (env.OPENAI_PROJECT_ID ?? null),
        ...(baseURL ? { baseURL } : {}),
        // A keyless server gets no Authorization header at all.
        ...(apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      });
      // Both OpenAI APIs draw on the same account's rate limits.
      const limiter = providerLimiter(compatible ? `openai-compatible@${baseURL}` : 'openai', options.concurrency);
      // An agent program may reach an OpenAI model through either of OpenAI's APIs; a compatible server through Chat only.
      const apis = compatible ? (['openai-chat'] as const) : (['openai-responses', 'openai-chat'] as const);
      if (spec.provider === 'openai-responses' || (spec.provider === 'openai' && onlyOnResponses(spec.name))) {
        return new OpenAIResponsesClient({ ...base, sdk, limiter, promptCacheKey: promptCache, apis });
      }
      return new OpenAIChatClient({
        ...base,
        sdk,
        legacyMaxTokens: compatible,
        noBatchApi: compatible,
        promptCacheKey: promptCache && !compatible,
        limiter,
        apis,
      });
    }
    case 'anthropic': {
      const apiKey = options.apiKey ?? env[KEY_VARS.anthropic];
      if (!apiKey) {
        throw new UserError(`model ${spec.spec} needs an API key: ${KEY_VARS.anthropic} is not set`, `export ${KEY_VARS.anthropic}=...`);
      }
      const sdk = new Anthropic({ ...sdkCommon, apiKey, ...(options.baseUrl ? { baseURL: checkUrl(options.baseUrl) } : {}) });
      return new AnthropicMessagesClient({ ...base, sdk, promptCache, limiter: providerLimiter('anthropic', options.concurrency) });
    }
    case 'scripted': {
      const make = registered.get(spec.provider);
      if (!make) throw new UserError(`model ${spec.spec} runs through the local model server, which this program has not loaded`);
      return make(spec, { base, sdkCommon, promptCache }, options);
    }
  }
}
