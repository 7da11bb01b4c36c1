import { tailText } from './swe-setup.js';

/** pytest's section headers: `=== FAILURES ===`, `=== short test summary info ===`, ... */
const SECTION = /^=+ ([A-Za-z][\w ]*?) =+$/gm;
const FAILURE_SECTIONS = new Set(['FAILURES', 'ERRORS']);

/**
 * What of a long runner output the grading log keeps: the whole of it when it fits, else pytest's failure sections
 * (the tracebacks, with the assertion that failed) and the tail (the summary). A plain tail of a verbose `-rA` run holds
 * only the captured output of passing tests, and would hide from the agent, as from a reader, which check failed.
 */
export function runnerOutputExcerpt(output: string, max: number): string {
  if (output.length <= max) return output;
  const failures: string[] = [];
  const headers = [...output.matchAll(SECTION)];
  headers.forEach((h, i) => {
    if (!FAILURE_SECTIONS.has(h[1]!)) return;
    failures.push(output.slice(h.index, headers[i + 1]?.index ?? output.length).trimEnd());
  });
  if (failures.length === 0) return tailText(output, max);
  // The first tracebacks: the one a reader (or the agent) looks at first.
  const all = failures.join('\n');
  const half = Math.floor(max / 2);
  const kept = all.length <= half ? all : `${all.slice(0, half)}…`;
  const tail = tailText(output, max - kept.length);
  const cut = output.length - kept.length - tail.length;
  return `${kept}\n\n[... ${Math.max(cut, 0)} characters of the output cut here ...]\n\n${tail}`;
}
