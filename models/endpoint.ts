import type { ModelApi, ModelEndpoint } from '../core/model.js';

/** What an SDK client was built with: the base URL its routes hang from, and its key. */
interface SdkAddress {
  baseURL: string;
  apiKey: string | null;
}

/**
 * Where a client's model answers `api`, read from the SDK it talks through: the client's own API, and the others of
 * the same provider it was allowed (`apis`). The base URL is the SDK's as it holds it (OpenAI's with `/v1`, Anthropic's
 * without), so that a proxy joins it with a route as the SDK would, keeping any path prefix a gateway needs.
 */
export function sdkEndpoint(sdk: SdkAddress, model: string, apis: readonly ModelApi[], api: ModelApi): ModelEndpoint | undefined {
  if (!apis.includes(api)) return undefined;
  const baseUrl = sdk.baseURL.replace(/\/+$/, '');
  return { baseUrl, apiKey: sdk.apiKey ?? '', model };
}
