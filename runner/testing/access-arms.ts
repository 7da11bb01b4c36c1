import { join } from 'node:path';
import { expect } from 'vitest';
import { cli } from './cli.js';

/**
 * A scripted run of `policy` on 5 LCB one-offs with the full scaffold under both access modes, full and read-only: a run
 * of two arms by access whose answer is known (modify-tests cheats with full access and cannot with read-only tests).
 * Stored in `dir/POLICY.sqlite`, whose path it returns.
 */
export async function runAccessArms(dir: string, policy: string): Promise<string> {
  const store = join(dir, `${policy}.sqlite`);
  const run = await cli(
    [
      'run',
      '--model',
      `scripted/${policy}`,
      '--dataset',
      'builtin:lcb',
      '--split',
      'oneoff',
      '--scaffold',
      'full',
      '--access',
      'full',
      '--access',
      'readonly',
      '--limit',
      '5',
      '--store',
      store,
    ],
    { cwd: dir },
  );
  expect(run.exitCode, run.stderr).toBe(0);
  return store;
}
