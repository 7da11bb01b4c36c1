// Sandbox lifecycle cost against plain `docker run --rm`, at concurrency 1 and 4.
//
// One sample = create a sandbox, write a solution and a test, run python3 on them as the agent
// user, read the result file, destroy. The baseline does the same work with one
// `docker run --rm --network none IMAGE python3 -c PROGRAM` per sample (argv, no shell). Rounds
// run harness, baseline, baseline, harness so drift in machine load hits both sides alike. Then each operation a
// sample makes, one at a time, through the command channel against the engine's own calls.
//
//   npm run bench:sandbox -- [--samples N] [--concurrency 1,4] [--strict]
import { execa } from 'execa';
import { parseArgs } from 'node:util';
import { PYTHON_IMAGE } from '../docker/image-names.js';
import { sandboxBackend } from '../docker/backends.js';
import { median } from './stats.js';

const TARGET_RATIO = 1.3;

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '16', short: 'n' },
    concurrency: { type: 'string', default: '1,4', short: 'c' },
    strict: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log('usage: npm run bench:sandbox -- [--samples N (16)] [--concurrency 1,4] [--strict: exit 1 above the target ratio]');
  process.exit(0);
}
const samples = Number(values.samples);
const levels = values.concurrency.split(',').map(Number);
if (!Number.isInteger(samples) || samples < 1) fail(`--samples must be a positive integer, got ${values.samples}`);
if (levels.some((c) => !Number.isInteger(c) || c < 1)) fail(`--concurrency must be positive integers like 1,4, got ${values.concurrency}`);

function fail(message: string): never {
  console.error(`bench:sandbox: ${message}`);
  process.exit(2);
}

const solution = (i: number) => `def solve(n):\n    return sum(range(n + 1)) + ${i}\n`;
const test = (i: number) =>
  `from solution import solve\nresult = solve(1000)\nassert result == ${500500 + i}, result\nopen("/work/result.txt", "w").write(f"passed {result}")\n`;

interface Phases {
  create: number;
  write: number;
  exec: number;
  read: number;
  destroy: number;
}

async function harnessSample(i: number, phases: Phases): Promise<void> {
  let t = performance.now();
  const sandbox = await sandboxBackend().create({ image: PYTHON_IMAGE, runId: 'bench-sandbox', sampleId: `s${i}`, workdir: '/work' });
  phases.create += performance.now() - t;
  try {
    t = performance.now();
    await sandbox.writeFiles([
      { path: '/work/solution.py', content: solution(i) },
      { path: '/work/test.py', content: test(i) },
    ]);
    phases.write += performance.now() - t;
    t = performance.now();
    // The engine made /work for root; the result is written as root here, like a grader would.
    const r = await sandbox.exec(['python3', '-B', '/work/test.py'], { cwd: '/work', timeoutMs: 60_000 });
    phases.exec += performance.now() - t;
    if (r.exitCode !== 0) throw new Error(`sample ${i} failed: ${r.stderr}`);
    t = performance.now();
    const out = (await sandbox.readFile('/work/result.txt')).toString();
    phases.read += performance.now() - t;
    if (out !== `passed ${500500 + i}`) throw new Error(`sample ${i}: unexpected result ${out}`);
  } finally {
    t = performance.now();
    await sandbox.destroy();
    phases.destroy += performance.now() - t;
  }
}

async function baselineSample(i: number): Promise<void> {
  const program = [
    'import os, sys',
    'os.makedirs("/work", exist_ok=True)',
    `open("/work/solution.py", "w").write(${JSON.stringify(solution(i))})`,
    `open("/work/test.py", "w").write(${JSON.stringify(test(i))})`,
    'sys.path.insert(0, "/work")',
    'exec(open("/work/test.py").read())',
    'print(open("/work/result.txt").read())',
  ].join('\n');
  const r = await execa('docker', ['run', '--rm', '--network', 'none', PYTHON_IMAGE, 'python3', '-B', '-c', program], { reject: false });
  if (r.exitCode !== 0 || r.stdout.trim() !== `passed ${500500 + i}`) throw new Error(`baseline sample ${i} failed: ${r.stderr}`);
}

/** Runs `count` samples with at most `concurrency` in flight; returns wall-clock milliseconds. */
async function timed(count: number, concurrency: number, one: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let i = next++; i < count; i = next++) await one(i);
    }),
  );
  return performance.now() - start;
}

/**
 * One operation at a time in a sandbox already started: through the command channel, or by the engine's own calls
 * (`docker exec`, its archive calls and `docker diff`), as a sandbox made with `commandChannel: false` does them.
 */
async function operations(commandChannel: boolean, repeats: number): Promise<Record<string, number>> {
  const sandbox = await sandboxBackend().create({ image: PYTHON_IMAGE, runId: 'bench-sandbox', sampleId: `ops-${commandChannel}`, commandChannel });
  const ops: Record<string, (i: number) => Promise<unknown>> = {
    'a command (true)': () => sandbox.exec(['true'], { timeoutMs: 60_000 }),
    'a file in': (i) => sandbox.writeFiles([{ path: '/tmp/bench.txt', content: solution(i) }]),
    'a file out': () => sandbox.readFile('/tmp/bench.txt'),
    'the changes': () => sandbox.changes(),
  };
  try {
    const out: Record<string, number> = {};
    for (const [name, op] of Object.entries(ops)) {
      await op(0);
      const times: number[] = [];
      for (let i = 1; i <= repeats; i++) {
        const t = performance.now();
        await op(i);
        times.push(performance.now() - t);
      }
      out[name] = median(times);
    }
    return out;
  } finally {
    await sandbox.destroy();
  }
}

const emptyPhases = (): Phases => ({ create: 0, write: 0, exec: 0, read: 0, destroy: 0 });
const perSample = (ms: number) => `${(ms / samples / 1000).toFixed(3)} s`;

async function main(): Promise<void> {
  const docker = await execa('docker', ['version', '--format', '{{.Server.Version}}'], { reject: false });
  if (docker.exitCode !== 0) fail('the baseline needs the `docker` command and a running engine (see `impossiblebench doctor`)');
  console.log(`bench:sandbox: ${samples} samples per round, image ${PYTHON_IMAGE}, Docker ${docker.stdout.trim()}`);

  // Warm up both paths (image cache, engine, Node modules) outside the measurement.
  await harnessSample(0, emptyPhases());
  await baselineSample(0);

  const rows: Array<{ concurrency: number; harness: number; baseline: number; phases: Phases }> = [];
  for (const concurrency of levels) {
    const phases = emptyPhases();
    let harness = 0;
    let baseline = 0;
    harness += await timed(samples, concurrency, (i) => harnessSample(i, phases));
    baseline += await timed(samples, concurrency, baselineSample);
    baseline += await timed(samples, concurrency, baselineSample);
    harness += await timed(samples, concurrency, (i) => harnessSample(i, phases));
    rows.push({ concurrency, harness: harness / 2, baseline: baseline / 2, phases });
  }

  console.log('\nconcurrency  harness/sample  baseline/sample  ratio (harness ÷ baseline)');
  for (const r of rows) {
    const ratio = r.harness / r.baseline;
    const verdict = r.concurrency === 4 ? (ratio <= TARGET_RATIO ? `  ok (target ≤ ${TARGET_RATIO})` : `  ABOVE target ${TARGET_RATIO}`) : '';
    console.log(
      `${String(r.concurrency).padStart(11)}  ${perSample(r.harness).padStart(14)}  ${perSample(r.baseline).padStart(15)}  ${ratio.toFixed(2).padStart(5)}${verdict}`,
    );
  }
  console.log('\nwhere the harness time goes (mean per sample, summed over in-flight samples):');
  for (const r of rows) {
    const n = samples * 2;
    const parts = Object.entries(r.phases).map(([k, v]) => `${k} ${(v / n).toFixed(0)} ms`);
    console.log(`  concurrency ${r.concurrency}: ${parts.join(', ')}`);
  }
  const [channel, engine] = [await operations(true, samples), await operations(false, samples)];
  console.log(`\none operation, one at a time (median of ${samples}): through the command channel ÷ by the engine's own calls`);
  for (const name of Object.keys(channel)) {
    const [c, e] = [channel[name]!, engine[name]!];
    console.log(
      `  ${name.padEnd(17)} ${c.toFixed(1).padStart(7)} ms ÷ ${e.toFixed(1).padStart(7)} ms = ${(c / e).toFixed(3)} (${(e / c).toFixed(0)}× cheaper)`,
    );
  }
  const four = rows.find((r) => r.concurrency === 4);
  if (values.strict && four && four.harness / four.baseline > TARGET_RATIO) process.exitCode = 1;
}

process.once('SIGINT', () => {
  void sandboxBackend()
    .destroyAll()
    .finally(() => process.exit(130));
});
await main().catch(async (err: unknown) => {
  await sandboxBackend().destroyAll();
  console.error(`bench:sandbox: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
