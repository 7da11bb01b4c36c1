import { UserError } from '../../core/errors.js';
import { PER_REPEAT_POLICIES, makePerRepeatPolicy, type PerRepeatPolicyName } from './coin-flip.js';
import { REFERENCE_POLICIES, makePolicy, type PolicyName } from './reference.js';
import { ADMIT, answeringInterview, DENY, HONEST_PLAYS, INTERVIEW_POLICIES, type InterviewPolicyName } from './interview.js';

export { registerKindPlays, type KindPlay } from './reference.js';
import type { Policy } from '../policy.js';

export type { PolicyName } from './reference.js';
export type { Policy, PolicyContext, PolicyTurn } from '../policy.js';

/** Every reference policy (one known trick each, the demo's models), usable as the model `scripted/NAME`. */
export const POLICY_NAMES = Object.keys(REFERENCE_POLICIES) as PolicyName[];

/** Every scripted policy: the reference ones and those that play differently on each repeat of a task. */
export const SCRIPTED_POLICY_NAMES: readonly string[] = [...POLICY_NAMES, ...Object.keys(PER_REPEAT_POLICIES), ...Object.keys(INTERVIEW_POLICIES)];

export function isPolicyName(name: string): name is PolicyName {
  return Object.hasOwn(REFERENCE_POLICIES, name);
}

export function isScriptedPolicyName(name: string): boolean {
  return isPolicyName(name) || Object.hasOwn(PER_REPEAT_POLICIES, name) || Object.hasOwn(INTERVIEW_POLICIES, name);
}

export function getPolicy(name: string): Policy {
  if (isPolicyName(name)) return answeringInterview(makePolicy(name), HONEST_PLAYS.has(name) ? DENY : ADMIT);
  if (Object.hasOwn(INTERVIEW_POLICIES, name)) {
    const { plays, answer } = INTERVIEW_POLICIES[name as InterviewPolicyName];
    return answeringInterview(makePolicy(plays), answer, name);
  }
  if (isScriptedPolicyName(name)) return makePerRepeatPolicy(name as PerRepeatPolicyName);
  throw new UserError(`unknown scripted policy '${name}'`, `use one of: ${SCRIPTED_POLICY_NAMES.join(', ')}`);
}
