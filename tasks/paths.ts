import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The installed package's root (holds package.json and tasks/builtin), from source or dist alike. */
export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'impossiblebench') {
      root = dir;
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the impossiblebench package root');
    dir = up;
  }
}

/** Where the built-in suites' readable sources live. */
export function builtinDir(...parts: string[]): string {
  return join(packageRoot(), 'tasks', 'builtin', ...parts);
}

/**
 * The cache folder (downloaded datasets, generated repositories): `IMPOSSIBLEBENCH_CACHE`, else
 * `$XDG_CACHE_HOME/impossiblebench`, else `~/.cache/impossiblebench`. An explicit option wins.
 */
export function cacheDir(override?: string): string {
  if (override) return resolve(override);
  const env = process.env.IMPOSSIBLEBENCH_CACHE;
  if (env) return resolve(env);
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg?.startsWith('/') ? xdg : join(homedir(), '.cache'), 'impossiblebench');
}
