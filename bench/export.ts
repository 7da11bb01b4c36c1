/**
 * Time, peak memory and output size of `export` to Inspect AI eval logs (`--format inspect` and `inspect-json`) beside
 * `export` to JSONL, on the store of a sweep's size `bench:report` measures (the same flags make or name it).
 *
 *   npm run bench:export [-- --store FILE | --samples N --transcript-kb K --from STORE --run ID]
 *
 * Each export runs in its own process under /usr/bin/time, so each peak is that export's alone; the Inspect exports
 * are printed as ratios to the JSONL export of the same run, so a slower or busier machine changes little of them.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Measured, measured } from './measured.js';
import { mb, SWEEP_HELP, SWEEP_OPTIONS, sweepStore } from './sweep-store.js';

const { values } = parseArgs({ options: SWEEP_OPTIONS });
if (values.help) {
  console.log(['usage: npm run bench:export -- [options]', ...SWEEP_HELP].join('\n'));
  process.exit(0);
}

/** Bytes of a file, or of the files in a folder (the Inspect formats write one log per configuration). */
function sizeOf(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).size;
  return readdirSync(path).reduce((n, f) => n + statSync(join(path, f)).size, 0);
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

async function main(): Promise<void> {
  const cores = availableParallelism();
  console.log(`bench:export on ${cores} cores: ${values.samples} samples, transcripts of about ${values['transcript-kb']} KB`);
  const dir = mkdtempSync(join(tmpdir(), 'ib-bench-export-'));
  try {
    const { path: store, generated } = await sweepStore(values, dir);
    const exportTo = async (label: string, out: string, format: string): Promise<Measured & { bytes: number }> => {
      const m = await measured(label, ['export', generated.runId, '--store', store, '--out', join(dir, out), '--format', format, '--no-card']);
      return { ...m, bytes: sizeOf(join(dir, out)) };
    };
    const jsonl = await exportTo('export JSONL', 'samples.jsonl', 'jsonl');
    const inspect = await exportTo('export inspect', 'logs-eval', 'inspect');
    const inspectJson = await exportTo('export inspect-json', 'logs-json', 'inspect-json');
    console.log(`against export JSONL (${jsonl.seconds.toFixed(1)} s on ${cores} cores, peak ${jsonl.peakMb.toFixed(0)} MB, ${mb(jsonl.bytes)}):`);
    for (const [label, m] of [
      ['inspect (.eval)', inspect],
      ['inspect-json (.json)', inspectJson],
    ] as const) {
      console.log(
        `  ${label.padEnd(20)} time ${ratio(m.seconds, jsonl.seconds)}, peak memory ${ratio(m.peakMb, jsonl.peakMb)}, output ${mb(m.bytes)} (${ratio(m.bytes, jsonl.bytes)})`,
      );
    }
  } finally {
    if (values.keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
