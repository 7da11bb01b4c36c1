/** The store of a sweep's size that `bench:report` and `bench:export` measure: its flags, and making or reading it. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { demoExperiment } from '../runner/commands/demo.js';
import { launchRun } from '../runner/orchestration/launch.js';
import { realWiring } from '../runner/wiring/real-wiring.js';
import { describeStore, generateStore, type GeneratedStore } from './report-store.js';

export const SWEEP_OPTIONS = {
  samples: { type: 'string', default: '10000' },
  'transcript-kb': { type: 'string', default: '100' },
  from: { type: 'string' },
  run: { type: 'string' },
  keep: { type: 'boolean', default: false },
  store: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export const SWEEP_HELP = [
  '  --samples N        samples in the generated store (default 10000)',
  '  --transcript-kb K  transcript size per sample, in KB (default 100)',
  '  --from STORE       copy the samples of the run --run names in this store, instead of running the demo matrix',
  '  --run ID           the run of --from to copy',
  '  --keep             keep the generated store and outputs, and say where',
  '  --store FILE       measure a store generated before (its latest run) instead of generating one',
];

export interface SweepFlags {
  samples: string;
  'transcript-kb': string;
  from?: string;
  run?: string;
  store?: string;
}

export const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** The demo's matrix, run once with the scripted policies through the library's run entry point: real samples to copy. */
async function demoRun(dir: string): Promise<{ store: string; run: string }> {
  const store = join(dir, 'demo.sqlite');
  const started = performance.now();
  const result = await launchRun({
    flags: demoExperiment(1, 4) as Record<string, unknown>,
    flagNames: {},
    store,
    wire: (exp) => realWiring(exp, { validateVariants: false }),
    signal: new AbortController().signal,
    progress: { plain: true, intervalS: 30 },
    say: (line) => process.stderr.write(`${line}\n`),
  });
  console.log(`demo matrix run: ${result.summary.runId}, in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { store, run: result.summary.runId };
}

/**
 * The store to measure, at `dir/sweep.sqlite`: generated from the demo matrix's samples or those of `--from`, or the
 * one `--store` names, measured as it is (generating 10,000 samples takes minutes).
 */
export async function sweepStore(flags: SweepFlags, dir: string): Promise<{ path: string; generated: GeneratedStore }> {
  const count = Number(flags.samples);
  const transcriptKb = Number(flags['transcript-kb']);
  if (!Number.isInteger(count) || count < 1 || !(transcriptKb > 0))
    throw new Error('--samples needs a whole number from 1 up, --transcript-kb a positive number');
  if (Boolean(flags.from) !== Boolean(flags.run)) throw new Error('--from and --run go together');
  const path = flags.store ?? join(dir, 'sweep.sqlite');
  const source = flags.store ? undefined : flags.from && flags.run ? { store: flags.from, run: flags.run } : await demoRun(dir);
  const started = performance.now();
  const generated = source ? generateStore(path, count, transcriptKb * 1000, source) : describeStore(path);
  const made = flags.store ? 'given' : `generated in ${((performance.now() - started) / 1000).toFixed(1)} s`;
  console.log(
    `store ${made}: ${generated.samples} samples in its run, ${mb(statSync(path).size)}, ${generated.transcriptChars} transcript characters a sample`,
  );
  return { path, generated };
}
