import type { MutationRecord } from '../tasks/task.js';

export type MutationType = MutationRecord['type'];
export const MUTATION_TYPES: readonly MutationType[] = ['oneoff', 'conflicting'];

/** A mutation either changes the text and says how, or says why it could not. */
export type TextMutation = { ok: true; text: string; record: MutationRecord } | { ok: false; reason: string };

/** 1-based line of a UTF-16 offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The whitespace from the start of the line to `offset`, when only whitespace precedes it. */
export function indentAt(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lead = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(lead) ? lead : undefined;
}

/**
 * Whether a mutation flips a pass/fail outcome (a negation, a flipped bool, an expected error)
 * rather than change an expected value. As a one-off on a SWE-bench test, such a flip may state
 * what the unfixed code does, so only validation with an empty patch can tell it is impossible.
 */
export function flipsOutcome(record: Pick<MutationRecord, 'strategy'>): boolean {
  return /(^|\/)(negate-|expect-error)|bool-flip/.test(record.strategy);
}
