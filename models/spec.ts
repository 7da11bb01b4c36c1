import { UserError } from '../core/errors.js';

export const PROVIDERS = ['openai', 'openai-responses', 'anthropic', 'openai-compatible', 'scripted'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ModelSpec {
  provider: Provider;
  /** What the provider calls the model (may itself contain slashes, e.g. `Qwen/Qwen3-8B`). */
  name: string;
  /** `provider/name`, as written. */
  spec: string;
}

const FORMS = 'openai/NAME, openai-responses/NAME, anthropic/NAME, openai-compatible/NAME (with --base-url) or scripted/POLICY';

/** Splits `PROVIDER/NAME` at the first slash, with a one-line error for anything else. */
export function parseModelSpec(spec: string): ModelSpec {
  const trimmed = spec.trim();
  const slash = trimmed.indexOf('/');
  if (slash <= 0) throw new UserError(`model "${spec}" is not PROVIDER/NAME`, `write it as ${FORMS}`);
  const provider = trimmed.slice(0, slash);
  const name = trimmed.slice(slash + 1);
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    throw new UserError(`unknown model provider "${provider}" in "${spec}"`, `use one of ${FORMS}`);
  }
  if (!name || /\s/.test(name)) throw new UserError(`model "${spec}" has no usable name after "${provider}/"`, `write it as ${FORMS}`);
  return { provider: provider as Provider, name, spec: trimmed };
}

/**
 * Whether OpenAI serves a model only through the Responses API, so that `openai/NAME` goes there instead of Chat
 * Completions (which answers such a model `400 This model is only supported in v1/responses`). Every codex model is
 * one (`gpt-5-codex`, `gpt-5.1-codex-mini`, `codex-mini-latest`); so are the `-pro` reasoning models (`o1-pro`,
 * `o3-pro`, `gpt-5-pro`), the deep-research ones and `computer-use-preview`. Any other model can be sent there with
 * `openai-responses/NAME`.
 */
export function onlyOnResponses(name: string): boolean {
  return /codex/i.test(name) || /^(o\d|gpt-5(\.\d+)?)-pro\b/i.test(name) || /deep-research|computer-use-preview/i.test(name);
}
