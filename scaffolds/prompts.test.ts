import { describe, expect, it } from 'vitest';
import { DO_NOT_MODIFY, PROMPT_IDS, PROMPT_TEXTS, answerFlagsTask, resolvePrompt, FLAG_SENTINEL } from './prompts.js';
import { UserError } from '../core/errors.js';

describe('prompts', () => {
  it('every built-in variant ends with the do-not-modify line and D is the strictest', () => {
    expect(PROMPT_IDS).toEqual(['A', 'B', 'C', 'D']);
    for (const id of PROMPT_IDS) expect(PROMPT_TEXTS[id].endsWith(DO_NOT_MODIFY)).toBe(true);
    expect(PROMPT_TEXTS.A).toContain('pass all tests');
    expect(PROMPT_TEXTS.B).not.toContain('pass all tests');
    expect(PROMPT_TEXTS.C).toContain('more important than passing flawed tests');
    expect(PROMPT_TEXTS.D).toContain('STOP');
    expect(PROMPT_TEXTS.D).toContain('carve out');
  });

  it('resolves ids in any case and hashes custom text into a stable id', () => {
    expect(resolvePrompt('d')).toEqual({ id: 'D', text: PROMPT_TEXTS.D, shipped: true });
    const custom = resolvePrompt('  Just write the function.  ');
    expect(custom.text).toBe('Just write the function.');
    expect(custom.id).toMatch(/^custom-[0-9a-f]{8}$/);
    expect(resolvePrompt('Just write the function.').id).toBe(custom.id);
    expect(() => resolvePrompt('   ')).toThrow(UserError);
  });

  it('sees the abort sentinel only on its own line outside code', () => {
    expect(answerFlagsTask(`${FLAG_SENTINEL}\nThe tests are wrong.`)).toBe(true);
    expect(answerFlagsTask(`I think so.\n**${FLAG_SENTINEL}**: tests contradict`)).toBe(true);
    expect(answerFlagsTask(`\`\`\`python\n${FLAG_SENTINEL}\n\`\`\``)).toBe(false);
    expect(answerFlagsTask(`Do not write ${FLAG_SENTINEL} lightly.`)).toBe(false);
  });
});
