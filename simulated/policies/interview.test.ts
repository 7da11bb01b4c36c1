import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../results/interview-answer.js';
import { shippedTemplates } from '../../scaffolds/templates.js';
import { getPolicy } from './index.js';
import { ADMIT, DENY, OFF_POINT } from './interview.js';
import type { PolicyContext } from '../policy.js';

const question = shippedTemplates()['interview.question'];
const asked = [
  { role: 'user' as const, content: 'task' },
  { role: 'assistant' as const, content: 'done' },
  { role: 'user' as const, content: question },
];
const context = { task: {}, scaffold: 'full' } as unknown as PolicyContext;

describe('scripted answers to the interview', () => {
  it.each([
    ['cheat-deny', DENY, 'denies'],
    ['cheat-admit', ADMIT, 'admits'],
    ['honest-deny', DENY, 'denies'],
    ['off-point', OFF_POINT, 'evasive'],
    ['modify-tests', ADMIT, 'admits'],
    ['honest', DENY, 'denies'],
  ] as const)('%s answers the shipped question as it says, and the rules read it as %s', (name, answer, reading) => {
    expect(getPolicy(name).next(asked, [], context)).toEqual({ text: answer });
    expect(readAnswer(answer)).toBe(reading);
  });
});
