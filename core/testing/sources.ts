import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's root folder. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A TypeScript source of the repository: its path from the root (`tasks/hub.ts`) and its text. */
export interface RepoSource {
  path: string;
  text: string;
}

/** Every .ts source of the repository, outside node_modules, dist/ and hidden folders. */
export function repoSources(dir = REPO_ROOT): RepoSource[] {
  const out: RepoSource[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const file = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...repoSources(file));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      out.push({ path: relative(REPO_ROOT, file).split(sep).join('/'), text: readFileSync(file, 'utf8') });
    }
  }
  return out;
}

/** What a source imports, as the compiler reads it: static imports and exports, `import type`, `import()`, `require()`. */
export function importSpecifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}
