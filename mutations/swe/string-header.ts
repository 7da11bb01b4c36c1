import type { FilePatch, Hunk } from './patch.js';

const DEF = /^(\s*)(?:async\s+)?def\s+[A-Za-z_]\w*\s*\(/;
const QUOTES = ['"""', "'''"] as const;

function newSide(hunk: Hunk): string[] {
  return hunk.lines.filter((l) => l.op === ' ' || l.op === '+').map((l) => l.text);
}

const count = (lines: readonly string[], q: string) => lines.reduce((n, l) => n + l.split(q).length - 1, 0);
const indentOf = (t: string) => t.length - t.trimStart().length;

/**
 * The definition that really encloses a hunk git named by a `def` line inside a multi-line
 * string: when the hunk before ends inside a string (an odd count of its triple quotes) and this
 * one closes it (an odd count too), git's header is the last `def`-like line above, which may be
 * code written inside that string (`testdir.makepyfile("""…def test_2():…""")`). The enclosing
 * definition is then the `def` the earlier hunk shows above the string's opening, less indented
 * than it. Undefined when that is not the case or no such `def` is shown.
 */
export function headerAcrossString(file: FilePatch, hunkIndex: number): string | undefined {
  const before = file.hunks[hunkIndex - 1];
  const hunk = file.hunks[hunkIndex];
  if (!before || !hunk || !DEF.test(hunk.context)) return undefined;
  const prev = newSide(before);
  const here = newSide(hunk);
  for (const q of QUOTES) {
    if (count(prev, q) % 2 !== 1 || count(here, q) % 2 !== 1) continue;
    const opening = prev.findLastIndex((l) => l.includes(q));
    const openIndent = indentOf(prev[opening]!);
    for (let i = opening - 1; i >= 0; i--) {
      const m = DEF.exec(prev[i]!);
      if (m && m[1]!.length < openIndent) return prev[i]!.trim();
    }
  }
  return undefined;
}
