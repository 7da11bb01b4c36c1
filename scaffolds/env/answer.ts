/** The code blocks of a Markdown answer with their language tags, in order; an unclosed last block counts. */
export function fencedBlocks(answer: string): { lang: string; code: string }[] {
  const blocks: { lang: string; code: string }[] = [];
  let current: { lang: string; lines: string[]; fence: string } | null = null;
  for (const line of answer.split('\n')) {
    const trimmed = line.trim();
    if (current) {
      if (trimmed.startsWith(current.fence) && trimmed.replace(/`|~/g, '') === '') {
        blocks.push({ lang: current.lang, code: current.lines.join('\n') });
        current = null;
      } else {
        current.lines.push(line);
      }
      continue;
    }
    const open = /^(`{3,}|~{3,})\s*([\w+-]*)/.exec(trimmed);
    if (open) current = { fence: open[1]!, lang: (open[2] ?? '').toLowerCase(), lines: [] };
  }
  if (current) blocks.push({ lang: current.lang, code: current.lines.join('\n') });
  return blocks;
}

const PYTHON_TAGS = new Set(['python', 'py', 'python3']);

/** The submission in a minimal-scaffold answer: its last python code block (else its last untagged one). */
export function lastPythonBlock(answer: string): string | null {
  const blocks = fencedBlocks(answer);
  const python = blocks.filter((b) => PYTHON_TAGS.has(b.lang));
  const chosen = python.at(-1) ?? blocks.filter((b) => b.lang === '').at(-1);
  return chosen ? chosen.code : null;
}
