/** Default size of one tool result shown to the model. */
export const MAX_TOOL_OUTPUT_CHARS = 16_000;

/** Keeps the head and the tail of a long text, saying how much was cut from the middle. */
export function headAndTail(text: string, maxChars = MAX_TOOL_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars * 0.5);
  const tail = maxChars - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n\n[... ${cut} characters cut from the middle of the output ...]\n\n${text.slice(text.length - tail)}`;
}
