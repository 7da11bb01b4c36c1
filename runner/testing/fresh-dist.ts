import { execa } from 'execa';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Global setup of the engine lane: the CLI tests run the build in dist/, so it is rebuilt first when any source file
 * is newer than it. `npm test` builds anyway; this keeps `npx vitest run FILE` after an edit from testing stale code.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES = ['core', 'runner', 'mutations', 'scaffolds', 'models', 'simulated', 'docker', 'tasks', 'results', 'bench'];
const BUILT = join(ROOT, 'dist', 'runner', 'cli.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(BUILT).mtimeMs;
  } catch {
    return 0;
  }
}

export default async function setup(): Promise<void> {
  const newest = Math.max(...SOURCES.map((s) => newestSource(join(ROOT, s))));
  if (newest <= builtAt()) return;
  process.stderr.write('dist/ is older than the sources: rebuilding it for the CLI tests (tsc)\n');
  await execa('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
}
