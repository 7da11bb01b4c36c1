import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { debianMirror, parseDeb822, parseOneLine, readAptSources } from './mirror.js';

describe('reading the Debian mirror from apt sources', () => {
  it('parses deb822 stanzas, skipping deb-src and disabled ones', () => {
    const text = [
      'Types: deb deb-src',
      'URIs: http://mirror.example/debian',
      'Suites: bookworm bookworm-updates',
      'Components: main contrib',
      '',
      'Types: deb',
      'URIs: http://security.example/debian-security',
      'Suites: bookworm-security',
      'Components: main',
      '',
      'Types: deb',
      'Enabled: no',
      'URIs: http://disabled.example/debian',
      'Suites: bookworm',
      '',
      'Types: deb-src',
      'URIs: http://src-only.example/debian',
      'Suites: bookworm',
    ].join('\n');
    const sources = parseDeb822(text, 'x.sources');
    expect(sources.map((s) => s.uri)).toEqual(['http://mirror.example/debian', 'http://security.example/debian-security']);
    expect(debianMirror(sources, 'bookworm')).toBe('http://mirror.example/debian');
  });

  it('parses one-line entries with options and comments', () => {
    const text =
      '# comment\ndeb [arch=amd64 signed-by=/k.gpg] http://one.example/debian/ bookworm main\ndeb http://security.example bookworm-security main\ndeb-src http://one.example/debian bookworm main\n';
    const sources = parseOneLine(text, 'sources.list');
    expect(sources).toHaveLength(2);
    expect(debianMirror(sources, 'bookworm')).toBe('http://one.example/debian');
  });

  it('prefers the source listing the wanted suite, and falls back to another main archive', () => {
    const sources = [
      ...parseOneLine('deb http://a.example/debian trixie main\n', 'a'),
      ...parseOneLine('deb http://b.example/debian bookworm main\n', 'b'),
    ];
    expect(debianMirror(sources, 'bookworm')).toBe('http://b.example/debian');
    expect(debianMirror(sources, 'sid')).toBe('http://a.example/debian');
    expect(debianMirror(parseOneLine('deb http://security.example bookworm-security main\n', 's'), 'bookworm')).toBeUndefined();
  });

  it('reads sources.list.d and sources.list from a folder', () => {
    const root = mkdtempSync(join(tmpdir(), 'apt-'));
    mkdirSync(join(root, 'sources.list.d'));
    writeFileSync(join(root, 'sources.list.d', 'debian.sources'), 'Types: deb\nURIs: http://d.example/debian\nSuites: bookworm\nComponents: main\n');
    writeFileSync(join(root, 'sources.list'), 'deb http://l.example/debian bookworm main\n');
    expect(readAptSources(root).map((s) => s.uri)).toEqual(['http://d.example/debian', 'http://l.example/debian']);
    expect(readAptSources(join(root, 'missing'))).toEqual([]);
  });
});
