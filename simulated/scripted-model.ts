import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { UserError } from '../core/errors.js';
import { AnthropicMessagesClient } from '../models/anthropic-client.js';
import { registerModelProvider, type ModelProvider } from '../models/factory.js';
import { providerLimiter } from '../models/limits.js';
import { defaultPrices } from '../models/prices.js';
import { OpenAIChatClient } from '../models/openai-client.js';
import { OpenAIResponsesClient } from '../models/responses-client.js';
import { getPolicy } from './policies/index.js';
import type { Policy, PolicyContext } from './policy.js';
import type { ModelServer, SessionOptions } from './server/server.js';

declare module '../models/factory.js' {
  interface ModelClientOptions {
    /** `scripted/`: the server the conversation runs through. */
    server?: ModelServer;
    /** `scripted/`: what the policy knows about the sample. */
    context?: PolicyContext;
    /** `scripted/`: which SDK and wire format to go through: Chat Completions (default), Messages or Responses. */
    wire?: 'openai' | 'anthropic' | 'responses';
    /** `scripted/`: a policy object instead of the named one from the registry. */
    policy?: Policy;
    /** `scripted/`: the session's fault key and fault config. */
    session?: SessionOptions;
    /** `scripted/`: bill the token use at this real model's prices (from `prices`); none, it costs nothing. */
    priceAs?: string;
  }
}

/**
 * `scripted/POLICY`: a real OpenAI (Chat Completions or Responses) or Anthropic SDK client talking to the local model
 * server, in a session of its own (so create one per sample and close it after). It costs nothing, unless the price
 * table gives the policy a price or `priceAs` names a real model whose prices its token use is billed at.
 */
export const scriptedModel: ModelProvider = (spec, { base, sdkCommon, promptCache }, options) => {
  const policy = options.policy ?? getPolicy(spec.name);
  const { server, context } = options;
  if (!server || !context) {
    throw new UserError(`model ${spec.spec} runs through the local model server: it needs a server and a sample context`);
  }
  const token = server.openSession(policy, context, options.session);
  const { priceAs } = options;
  const prices = options.prices ?? defaultPrices(options.env);
  const scripted = {
    ...base,
    cost: priceAs ? (usage: Parameters<typeof base.cost>[0]) => prices.cost(priceAs, usage) : base.cost,
    limiter: providerLimiter('scripted', options.concurrency),
    onClose: () => server.closeSession(token),
  };
  if ((options.wire ?? 'openai') === 'anthropic') {
    const sdk = new Anthropic({ ...sdkCommon, apiKey: token, baseURL: server.anthropicBaseUrl });
    return new AnthropicMessagesClient({ ...scripted, sdk, promptCache });
  }
  const sdk = new OpenAI({ ...sdkCommon, apiKey: token, baseURL: server.openaiBaseUrl, organization: null, project: null });
  if (options.wire === 'responses') return new OpenAIResponsesClient({ ...scripted, sdk, promptCacheKey: promptCache });
  return new OpenAIChatClient({ ...scripted, sdk, legacyMaxTokens: false, promptCacheKey: promptCache });
};

registerModelProvider('scripted', scriptedModel);
