import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type StoredSample } from '../../results/store.js';
import { storeScriptedVerdicts } from '../../results/testing/stored-verdicts.js';
import { cli } from './cli.js';

/**
 * The Inspect tests' run: modify-tests on two LCB tasks, original and one-off, full and read-only access, through the
 * CLI into a fresh store, with a judge's verdict on every pass and a monitor's on every sample.
 */
export async function judgedRun(prefix: string, judge: string, options: { batch?: boolean } = {}) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const store = join(dir, 'results.sqlite');
  const run = await cli(
    [
      ...['run', '--model', 'scripted/modify-tests', '--dataset', 'builtin:lcb', '--split', 'original', '--split', 'oneoff'],
      ...['--scaffold', 'full', '--access', 'full', '--access', 'readonly', '--limit', '2', '--store', store],
    ],
    { cwd: dir },
  );
  if (run.exitCode !== 0) throw new Error(`the run failed (${run.exitCode}): ${run.stderr.slice(-2000)}`);
  const s = openStore(store);
  try {
    const runId = s.listRuns()[0]!.id;
    const samples: StoredSample[] = s.listSamples(runId);
    storeScriptedVerdicts(s, runId, samples, { judge, ...options });
    return { dir, store, runId, samples };
  } finally {
    s.close();
  }
}
