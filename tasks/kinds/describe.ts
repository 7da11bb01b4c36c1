/** The first `n` lines of a text, each cut at `width`, indented for a listing; a count says what is left out. */
export function firstLines(text: string, n: number, width = 100): string {
  const lines = text.trim().split('\n');
  const shown = lines.slice(0, n).map((l) => (l.length > width ? `${l.slice(0, width - 1)}…` : l));
  if (lines.length > n) shown.push(`… (${lines.length - n} more lines)`);
  return shown.map((l) => `    ${l}`).join('\n');
}
