import { describe, expect, it } from 'vitest';
import { exempt, oversize } from './testing/sizes.js';
import { repoSources } from './testing/sources.js';

/**
 * The size limits of `testing/sizes.ts`, held over every source of the repository. KNOWN_OVERSIZE names the sources
 * still over a limit, so the list can only shrink; remove an entry when its file is fixed.
 */
const KNOWN_OVERSIZE = new Set<string>(['mutations/audit/audit.ts', 'mutations/swe/edit.ts', 'python/assertions.ts']);

describe('sizes', () => {
  const sources = repoSources().filter((s) => !exempt(s.path));

  it('no function over 80 lines and no file over 400 lines, outside the known exceptions', () => {
    const found = sources.filter((s) => !KNOWN_OVERSIZE.has(s.path)).flatMap((s) => oversize(s.path, s.text));
    expect(found, 'split the function or the file by what it does').toEqual([]);
  });

  it('every known exception still exists and is still over a limit, so the list only shrinks', () => {
    const stale = [...KNOWN_OVERSIZE].filter((path) => {
      const source = sources.find((s) => s.path === path);
      return !source || oversize(source.path, source.text).length === 0;
    });
    expect(stale, 'remove these from KNOWN_OVERSIZE').toEqual([]);
  });

  it('the checker finds a long function and a long file', () => {
    const longBody = Array.from({ length: 85 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(oversize('x.ts', `export function f() {\n${longBody}\n}\n`)).toEqual(['x.ts:1: a function of 87 lines (at most 80)']);
    expect(oversize('y.ts', 'const a = 1;\n'.repeat(401))).toEqual(['y.ts: 402 lines (at most 400)']);
  });
});
