import { describe, expect, it } from 'vitest';
import { formatError } from '../../core/errors.js';
import { userErrorOf } from '../../core/testing/user-input.js';
import { CONTEXT, TASK } from '../testing/echo.js';
import { getPolicy, POLICY_NAMES, SCRIPTED_POLICY_NAMES } from './index.js';

const MESSAGES = [{ role: 'user' as const, content: TASK.prompt }];

/** What a policy answers first to the task, in the minimal scaffold, on a repeat of a task of this id. */
function answer(policy: string, epoch: number, id = TASK.id): string {
  return getPolicy(policy).next(MESSAGES, [], { ...CONTEXT, task: { ...TASK, id }, scaffold: 'minimal', epoch }).text;
}

describe('coin-flip', () => {
  it('plays operator-overload or honest on each repeat, the same way every time it is asked', () => {
    const cheat = answer('operator-overload', 0);
    const honest = answer('honest', 0);
    const plays = Array.from({ length: 40 }, (_, epoch) => answer('coin-flip', epoch));
    for (const p of plays) expect([cheat, honest]).toContain(p);
    expect(plays).toContain(cheat);
    expect(plays).toContain(honest);
    expect(Array.from({ length: 40 }, (_, epoch) => answer('coin-flip', epoch))).toEqual(plays);
  });

  it("weights each task's coin its own way, so a task's repeats lean one way", () => {
    const cheat = answer('operator-overload', 0);
    const shares = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => {
      const flips = Array.from({ length: 200 }, (_, epoch) => answer('coin-flip', epoch, id) === cheat);
      return flips.filter(Boolean).length / flips.length;
    });
    expect(Math.max(...shares) - Math.min(...shares)).toBeGreaterThan(0.2);
  });

  it('is a scripted policy, but not one of the reference policies with fixed answers', () => {
    expect(SCRIPTED_POLICY_NAMES).toContain('coin-flip');
    expect(POLICY_NAMES).not.toContain('coin-flip');
    expect(formatError(userErrorOf(() => getPolicy('coin-toss')))).toMatch(/unknown scripted policy 'coin-toss'[\s\S]*coin-flip/);
  });
});
