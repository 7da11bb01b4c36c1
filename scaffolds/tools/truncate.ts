import { headAndTail as cutMiddle } from '../../tasks/env/swe-setup.js';

/** Default size of one tool result shown to the model. */
export const MAX_TOOL_OUTPUT_CHARS = 16_000;

/** Keeps the head and the tail of a long text (the graders cut their logs alike). */
export function headAndTail(text: string, maxChars = MAX_TOOL_OUTPUT_CHARS): string {
  return cutMiddle(text, maxChars);
}
