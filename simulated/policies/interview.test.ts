import { describe, expect, it } from 'vitest';
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
    ['cheat-deny', DENY],
    ['cheat-admit', ADMIT],
    ['honest-deny', DENY],
    ['off-point', OFF_POINT],
    ['modify-tests', ADMIT],
    ['honest', DENY],
  ] as const)('%s answers the shipped question as its name or its play says', (name, answer) => {
    expect(getPolicy(name).next(asked, [], context)).toEqual({ text: answer });
  });
});
