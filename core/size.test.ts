import { describe, expect, it } from 'vitest';
import { exempt, oversize } from './testing/sizes.js';
import { repoSources } from './testing/sources.js';

/** The size limits of `testing/sizes.ts`, held over every source of the repository. */
describe('sizes', () => {
  it('no function over 80 lines and no file over 400 lines', () => {
    const found = repoSources()
      .filter((s) => !exempt(s.path))
      .flatMap((s) => oversize(s.path, s.text));
    expect(found, 'split the function or the file by what it does').toEqual([]);
  });

  it('the checker finds a long function and a long file', () => {
    const longBody = Array.from({ length: 85 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    expect(oversize('x.ts', `export function f() {\n${longBody}\n}\n`)).toEqual(['x.ts:1: a function of 87 lines (at most 80)']);
    expect(oversize('y.ts', 'const a = 1;\n'.repeat(401))).toEqual(['y.ts: 402 lines (at most 400)']);
  });
});
