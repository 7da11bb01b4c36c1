import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: two folders above this file, in source and in dist alike. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const base = existsSync(join(root, 'package.json')) ? root : resolve(root, '..');

/** `../shared/data` beside the project root, where the benchmark's real data sets live (never copied in). */
export const SHARED_DATA = resolve(base, '..', 'shared', 'data');

/**
 * A file of the shared data sets, or undefined (with a warning) where they are absent: tests that
 * read them then skip. Under CI (`CI` set) the data must be there, so a missing file is an error
 * rather than a quiet skip.
 */
export function sharedDataFile(rel: string): string | undefined {
  const p = join(SHARED_DATA, rel);
  if (existsSync(p)) return p;
  if (process.env.CI) throw new Error(`${p} is absent, and CI needs it (the shared data sets live in ../shared/data beside the project)`);
  console.warn(`skipping: ${p} is absent (the shared data sets live in ../shared/data beside the project)`);
  return undefined;
}

/** What a test's context offers to skip it while it runs (vitest's `ctx.skip`). */
export interface SkippableTest {
  skip(note?: string): never;
}

/**
 * A file of the shared data sets that a test cannot do without: where it is absent the test is reported as skipped
 * with the reason (never passed), and under CI it fails.
 */
export function requireSharedData(ctx: SkippableTest, rel: string): string {
  const p = join(SHARED_DATA, rel);
  if (existsSync(p)) return p;
  const why = `${p} is absent (the shared data sets live in ../shared/data beside the project)`;
  if (process.env.CI) throw new Error(`${why}, and CI needs it`);
  return ctx.skip(why);
}

export function readJsonl<T = Record<string, unknown>>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}
