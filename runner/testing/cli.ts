import { execa, type ResultPromise } from 'execa';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxBackend } from '../../docker/backends.js';

/** The project root, from this file (source or dist). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'bin', 'impossiblebench.js');

/** Tests that spawn the CLI run the build in dist/ (`npm test` builds first). */
export function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'runner', 'cli.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the CLI tests (npm test does)');
  }
}

/** Runs the CLI to its end; never throws on a non-zero exit. */
export function cli(args: string[], options: { cwd?: string; timeout?: number; env?: Record<string, string> } = {}) {
  return execa('node', [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    reject: false,
    timeout: options.timeout ?? 300_000,
    env: { IMPOSSIBLEBENCH_DEBUG: '', ...options.env },
  });
}

/** Starts the CLI in the background, for tests that kill or interrupt it. */
export function spawnCli(args: string[], options: { cwd?: string } = {}): ResultPromise<{ reject: false; all: true }> {
  return execa('node', [BIN, ...args], { cwd: options.cwd ?? ROOT, reject: false, all: true });
}

/** Ids of the sandboxes (running or not) of this run id. */
export async function runContainers(runId: string, backend = sandboxBackend()): Promise<string[]> {
  return (await backend.list({ runId })).map((c) => c.id);
}

/** Polls until `check` is true or the time runs out; returns whether it became true. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}
