import type { ModelApi, ModelEndpoint } from '../core/model.js';

/** What an SDK client was built with: the base URL its routes hang from, its key, and OpenAI's account scoping. */
interface SdkAddress {
  baseURL: string;
  apiKey: string | null;
  organization?: string | null;
  project?: string | null;
}

/**
 * Where a client's model answers `api`, read from the SDK it talks through: the client's own API, and the others of
 * the same provider it was allowed (`apis`). The base URL is the SDK's as it holds it (OpenAI's with `/v1`, Anthropic's
 * without), so that a proxy joins it with a route as the SDK would, keeping any path prefix a gateway needs.
 */
export function sdkEndpoint(sdk: SdkAddress, model: string, apis: readonly ModelApi[], api: ModelApi): ModelEndpoint | undefined {
  if (!apis.includes(api)) return undefined;
  const baseUrl = sdk.baseURL.replace(/\/+$/, '');
  // The headers the OpenAI SDK sends for an organization or project (OPENAI_ORG_ID, OPENAI_PROJECT_ID): a proxy adds
  // them as it adds the key, so a program bills the same account as our own loops.
  const headers: Record<string, string> = {};
  if (sdk.organization) headers['openai-organization'] = sdk.organization;
  if (sdk.project) headers['openai-project'] = sdk.project;
  return { baseUrl, apiKey: sdk.apiKey ?? '', model, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}
