import { UserError } from '../../core/errors.js';
import { REFERENCE_POLICIES, makePolicy, type PolicyName } from './reference.js';

export { registerKindPlays, type KindPlay } from './reference.js';
import type { Policy } from '../policy.js';

export type { PolicyName } from './reference.js';
export type { Policy, PolicyContext, PolicyTurn } from '../policy.js';

/** Every scripted policy, usable as the model `scripted/NAME`. */
export const POLICY_NAMES = Object.keys(REFERENCE_POLICIES) as PolicyName[];

export function isPolicyName(name: string): name is PolicyName {
  return Object.hasOwn(REFERENCE_POLICIES, name);
}

export function getPolicy(name: string): Policy {
  if (!isPolicyName(name)) {
    throw new UserError(`unknown scripted policy '${name}'`, `use one of: ${POLICY_NAMES.join(', ')}`);
  }
  return makePolicy(name);
}
