import { describe, expect, it } from 'vitest';
import { pythonParser } from '../python/parser.js';
import { withTreeSync } from '../python/sync.js';
import { placeholderSpans } from './placeholders.js';
import { rngFor } from './rng.js';
import { applyEdits, changeLeaf, mutableLeaves } from './values.js';

const shown = (text: string) => placeholderSpans(text).map(([s, e]) => text.slice(s, e));

describe('format placeholders', () => {
  it('finds printf and str.format placeholders whole', () => {
    expect(shown('“%s” value must be a decimal number.')).toEqual(['%s']);
    expect(shown('%(name)s is %-5.2f%% of %d')).toEqual(['%(name)s', '%-5.2f', '%%', '%d']);
    expect(shown('{} and {0} and {name} and {name.attr[0]!r:>10}')).toEqual(['{}', '{0}', '{name}', '{name.attr[0]!r:>10}']);
  });

  it('leaves escaped braces, and text that cannot be such a template, to be changed', () => {
    expect(shown('{{name}}')).toEqual([]);
    // Its first `{` opens no field: `.format` would raise on it, so it is no template.
    expect(shown('\\left(x^{2}{\\right)')).toEqual([]);
    // A `%` that opens no placeholder: no printf template either.
    expect(shown('50% off, %s')).toEqual([]);
  });

  it('a changed character of a string never lies in one of its placeholders', async () => {
    const parser = await pythonParser();
    for (const src of ['"value %(value)r is %d%%"', '"{} of {name!r:>3}"', '"%s"']) {
      withTreeSync(parser, src, (t) => {
        const leaf = mutableLeaves(t.rootNode.namedChild(0)!.namedChild(0)!)[0]!;
        for (let seed = 0; seed < 40; seed++) {
          const change = changeLeaf(leaf, { tolerance: { rel: 0, abs: 0 }, plausible: [], rng: rngFor(seed, 'placeholders', 'oneoff') })!;
          const changed = applyEdits(src, [change.edit]);
          expect(shown(changed.slice(1, -1)), changed).toEqual(shown(src.slice(1, -1)));
          expect(changed).not.toBe(src);
        }
      });
    }
  });
});
