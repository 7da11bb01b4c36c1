import type { IncomingMessage } from 'node:http';
import type { AgentApi } from './replies.js';

/** What a route of the proxy is: a model turn (counted, priced, limited) or a free side call (a token count). */
export type RouteKind = 'model' | 'count';

/**
 * The routes each API may reach through the proxy, as the agent program sends them (its base URL is the proxy's, so
 * OpenAI programs send `/v1/...`); nothing else of the provider's is forwarded.
 */
const ROUTES: Record<AgentApi, Readonly<Record<string, RouteKind>>> = {
  'openai-chat': { '/v1/chat/completions': 'model' },
  'openai-responses': { '/v1/responses': 'model' },
  // Claude Code counts a prompt's tokens before it sends a long one.
  anthropic: { '/v1/messages': 'model', '/v1/messages/count_tokens': 'count' },
};

export function routeOf(api: AgentApi, path: string): RouteKind | undefined {
  return Object.hasOwn(ROUTES[api], path) ? ROUTES[api][path] : undefined;
}

export function routesOf(api: AgentApi): string[] {
  return Object.keys(ROUTES[api]);
}

/**
 * Where the provider's SDK would send the agent's request, given the base URL the SDK holds. Both SDKs join a base
 * URL and a route as text (`base + path`, one slash between), so a path prefix stays; they differ in the route:
 * OpenAI's base URL holds `/v1` (`https://gateway.example/openai/v1` + `/responses`), Anthropic's does not
 * (`http://host/proxy/anthropic` + `/v1/messages`). The query (Claude Code's `?beta=true`) is kept.
 */
export function upstreamUrl(api: AgentApi, base: string, agentUrl: string): URL {
  const asked = new URL(agentUrl, 'http://proxy');
  const route = api === 'anthropic' ? asked.pathname : asked.pathname.replace(/^\/v1(?=\/)/, '');
  const url = new URL(base.replace(/\/+$/, '') + route);
  url.search = asked.search;
  return url;
}

/** Request headers the proxy passes on: content negotiation and API versions, never credentials. */
const PASSED_REQUEST = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'openai-beta', 'user-agent'];

export function upstreamHeaders(
  api: AgentApi,
  req: IncomingMessage,
  apiKey: string,
  account: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const headers: Record<string, string> = { ...account };
  for (const name of PASSED_REQUEST) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (api === 'anthropic') headers['x-api-key'] = apiKey;
  else headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

/**
 * Reply headers the agent program is given as the provider sent them: how long to wait before a retry (429, 529,
 * 503), whether to retry at all, the rate-limit budget and the request's id. Not the body's encoding or length: the
 * proxy hands on the decoded body (see upstream-request.ts), so those would be wrong.
 */
const PASSED_REPLY = /^(content-type|retry-after(-ms)?|x-should-retry|(x-)?request-id|openai-processing-ms|(x-|anthropic-)?ratelimit-.*)$/;

export function replyHeaders(reply: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply)) if (PASSED_REPLY.test(name)) headers[name] = value;
  headers['content-type'] ??= 'application/json';
  return headers;
}

/** The reply headers a record keeps: those that say why a request failed and when to try again. */
export function keptHeaders(headers: Record<string, string>): Record<string, string> | undefined {
  const kept = Object.entries(headers).filter(([name]) => /^(retry-after(-ms)?|x-should-retry)$/.test(name));
  return kept.length ? Object.fromEntries(kept) : undefined;
}
