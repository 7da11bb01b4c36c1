import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface AptSource {
  uri: string;
  suites: string[];
  components: string[];
  /** Where it was read from, for messages. */
  file: string;
}

/** Parses deb822 `.sources` stanzas (Types/URIs/Suites/Components); keeps `deb` entries only. */
export function parseDeb822(text: string, file: string): AptSource[] {
  const out: AptSource[] = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let last: string | undefined;
    for (const raw of stanza.split('\n')) {
      if (raw.startsWith('#') || raw.trim() === '') continue;
      if (/^\s/.test(raw) && last) {
        fields.set(last, `${fields.get(last)} ${raw.trim()}`);
        continue;
      }
      const colon = raw.indexOf(':');
      if (colon < 0) continue;
      last = raw.slice(0, colon).trim().toLowerCase();
      fields.set(last, raw.slice(colon + 1).trim());
    }
    if (fields.get('enabled')?.toLowerCase() === 'no') continue;
    const types = (fields.get('types') ?? '').split(/\s+/);
    if (!types.includes('deb')) continue;
    const suites = (fields.get('suites') ?? '').split(/\s+/).filter(Boolean);
    const components = (fields.get('components') ?? '').split(/\s+/).filter(Boolean);
    for (const uri of (fields.get('uris') ?? '').split(/\s+/).filter(Boolean)) out.push({ uri, suites, components, file });
  }
  return out;
}

/** Parses one-line `deb [options] URI suite component…` entries. */
export function parseOneLine(text: string, file: string): AptSource[] {
  const out: AptSource[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line.startsWith('deb ') && !line.startsWith('deb\t')) continue;
    const rest = line
      .slice(3)
      .trim()
      .replace(/^\[[^\]]*\]\s*/, '');
    const [uri, suite, ...components] = rest.split(/\s+/);
    if (uri && suite) out.push({ uri, suites: [suite], components, file });
  }
  return out;
}

/** Every `deb` source configured for apt on this machine. */
export function readAptSources(root = '/etc/apt'): AptSource[] {
  const sources: AptSource[] = [];
  const dir = join(root, 'sources.list.d');
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {
    // No folder: only sources.list.
  }
  for (const name of names) {
    const file = join(dir, name);
    try {
      if (name.endsWith('.sources')) sources.push(...parseDeb822(readFileSync(file, 'utf8'), file));
      else if (name.endsWith('.list')) sources.push(...parseOneLine(readFileSync(file, 'utf8'), file));
    } catch {
      // Unreadable entries are skipped, like apt does with a warning.
    }
  }
  try {
    const file = join(root, 'sources.list');
    sources.push(...parseOneLine(readFileSync(file, 'utf8'), file));
  } catch {
    // Absent on deb822-only systems.
  }
  return sources;
}

/**
 * The Debian archive apt already uses here, for `suite`: a source that lists the suite itself (not
 * only -security or -updates), else the first one carrying the main archive.
 */
export function debianMirror(sources: AptSource[], suite: string): string | undefined {
  const isMain = (s: AptSource) => s.suites.some((x) => !/-(security|updates|backports|proposed-updates)$|\/updates$/.test(x));
  const debianLike = sources.filter((s) => isMain(s) && !/ubuntu|security/i.test(s.uri));
  const exact = debianLike.find((s) => s.suites.includes(suite));
  return (exact ?? debianLike[0])?.uri.replace(/\/+$/, '');
}
