import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fillPlaceholders, shippedPath } from './shipped.js';

describe('shippedPath', () => {
  it('finds a file beside a module of the sources, and under the package root (never in dist/) for a built module', () => {
    const root = mkdtempSync(join(tmpdir(), 'ib-shipped-'));
    try {
      writeFileSync(join(root, 'package.json'), '{"name": "impossiblebench"}');
      mkdirSync(join(root, 'a', 'b'), { recursive: true });
      writeFileSync(join(root, 'a', 'b', 'x.py'), '');
      // A compiled module of the same name in dist/ is never taken for the shipped file.
      mkdirSync(join(root, 'dist', 'a', 'b'), { recursive: true });
      writeFileSync(join(root, 'dist', 'a', 'b', 'x.py'), '');
      const source = pathToFileURL(join(root, 'a', 'b', 'm.ts')).href;
      const built = pathToFileURL(join(root, 'dist', 'a', 'b', 'm.js')).href;
      expect(shippedPath(source, 'x.py')).toBe(join(root, 'a', 'b', 'x.py'));
      expect(shippedPath(built, 'x.py')).toBe(join(root, 'a', 'b', 'x.py'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('fillPlaceholders', () => {
  it('fills every placeholder, and names one without a value or a value without a placeholder', () => {
    expect(fillPlaceholders('a=@A@ b=@B_2@ $@ @x@', { A: '1', B_2: "'2'" }, 't')).toBe("a=1 b='2' $@ @x@");
    expect(() => fillPlaceholders('@A@ @C@', { A: '1' }, 't.sh')).toThrow('t.sh: no value for the placeholder @C@');
    expect(() => fillPlaceholders('@A@', { A: '1', D: '2' }, 't.sh')).toThrow('t.sh: no placeholder for @D@');
  });
});
