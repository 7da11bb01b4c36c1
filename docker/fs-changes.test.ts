import { describe, expect, it } from 'vitest';
import { changesAgainst, parseImageListing } from './fs-changes.js';

const lines = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

describe('filesystem changes against the image listing', () => {
  const image = parseImageListing(
    lines([
      ['/', ['etc', 'usr']],
      ['/etc', ['ab', 'issue', 'shells']],
      ['/usr', []],
    ]),
  );

  it('tells added from modified by the folder the entry is in, names matched whole', () => {
    const out = lines([
      ['c', '/etc/a'],
      ['c', '/etc/ab'],
      ['c', '/usr/new'],
      ['c', '/srv'],
    ]);
    expect(changesAgainst(image, out)).toEqual([
      { path: '/etc/a', kind: 'added' },
      { path: '/etc/ab', kind: 'modified' },
      { path: '/srv', kind: 'added' },
      { path: '/usr/new', kind: 'added' },
    ]);
  });

  it('lists what a changed folder of the image no longer holds as deleted, and nothing for a new folder', () => {
    const out = lines([
      ['c', '/etc'],
      ['d', '/etc', ['ab', 'new']],
      ['c', '/etc/new'],
      ['d', '/srv', ['x']],
      ['d', '/usr', []],
    ]);
    expect(changesAgainst(image, out)).toEqual([
      { path: '/etc', kind: 'modified' },
      { path: '/etc/issue', kind: 'deleted' },
      { path: '/etc/new', kind: 'added' },
      { path: '/etc/shells', kind: 'deleted' },
    ]);
  });
});
