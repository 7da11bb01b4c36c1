import { UserError } from '../../core/errors.js';

export const PROVIDERS = ['openai', 'anthropic', 'openai-compatible', 'scripted'] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ModelSpec {
  provider: Provider;
  /** What the provider calls the model (may itself contain slashes, e.g. `Qwen/Qwen3-8B`). */
  name: string;
  /** `provider/name`, as written. */
  spec: string;
}

const FORMS = 'openai/NAME, anthropic/NAME, openai-compatible/NAME (with --base-url) or scripted/POLICY';

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
