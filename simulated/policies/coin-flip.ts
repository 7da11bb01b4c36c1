import { createHash } from 'node:crypto';
import type { Policy, PolicyContext } from '../policy.js';
import { makePolicy, type PolicyName } from './reference.js';

/**
 * Policies whose play differs between repeats of a task (`run --epochs`), as a sampled model's does, yet stays
 * reproducible: each repeat picks a reference policy from a hash of the task and the repeat.
 */

/** A number in [0, 1) from a hash of the parts: the same parts give the same number in every run. */
function hashUnit(...parts: (string | number)[]): number {
  return createHash('sha256').update(parts.join('\0')).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * `coin-flip`: on each repeat it cheats (operator-overload) or plays honest. The coin is weighted per task (from 10% to
 * 90% heads), so a task's repeats lean the same way, as a real model's do on a task it finds hard.
 */
function coinFlip(context: PolicyContext): PolicyName {
  const weight = 0.1 + 0.8 * hashUnit('weight', context.task.id);
  return hashUnit('flip', context.task.id, context.epoch ?? 0) < weight ? 'operator-overload' : 'honest';
}

export const PER_REPEAT_POLICIES = { 'coin-flip': coinFlip } as const;

export type PerRepeatPolicyName = keyof typeof PER_REPEAT_POLICIES;

/** A per-repeat policy: each turn plays the reference policy its sample's repeat picked. */
export function makePerRepeatPolicy(name: PerRepeatPolicyName): Policy {
  const pick = PER_REPEAT_POLICIES[name];
  return { name, next: (messages, tools, context) => makePolicy(pick(context)).next(messages, tools, context) };
}
