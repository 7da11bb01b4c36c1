/**
 * Throughput of the runner on the demo matrix, against the sandbox floor.
 *
 *   npm run bench:run [-- --tasks N --concurrency N --suite all|lcb|swe]
 *
 * Prints samples per minute for the whole demo matrix (every reference policy × split × scaffold ×
 * access mode) and the mean harness time per sample beside the floor: a bare container lifecycle
 * (create, start, one exec, remove), measured in the same process just before.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PYTHON_IMAGE } from '../docker/images.js';
import { createSandbox } from '../docker/sandbox.js';
import { openStore } from '../results/store.js';
import { demoExperiment, DEMO_SUITE, DEMO_SUITES, DEMO_TASKS, type DemoSuite } from '../runner/commands/demo.js';
import { launchRun } from '../runner/launch.js';
import { realWiring } from '../runner/real-wiring.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: String(DEMO_TASKS) },
    concurrency: { type: 'string', default: '4' },
    floor: { type: 'string', default: '8' },
    suite: { type: 'string', default: DEMO_SUITE },
  },
});
if (!(values.suite! in DEMO_SUITES)) {
  console.error(`bench:run: --suite takes ${Object.keys(DEMO_SUITES).join(', ')}`);
  process.exit(2);
}
const suite = values.suite as DemoSuite;
const tasks = Number(values.tasks);
const concurrency = Number(values.concurrency);
const floorRuns = Number(values.floor);

function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
}

/** One bare sandbox lifecycle, in ms: what no sample can go below. */
async function lifecycle(i: number): Promise<number> {
  const t = performance.now();
  const sandbox = await createSandbox({ image: PYTHON_IMAGE, runId: 'bench-floor', sampleId: `floor-${i}` });
  try {
    await sandbox.exec(['true']);
  } finally {
    await sandbox.destroy();
  }
  return performance.now() - t;
}

const dir = await mkdtemp(join(tmpdir(), 'ib-bench-run-'));
try {
  await lifecycle(-1); // warm the engine connection and the image cache
  const floor: number[] = [];
  for (let i = 0; i < floorRuns; i++) floor.push(await lifecycle(i));
  const floorMs = mean(floor);

  const store = join(dir, 'bench.sqlite');
  const controller = new AbortController();
  const started = performance.now();
  const result = await launchRun({
    flags: demoExperiment(tasks, concurrency, suite) as Record<string, unknown>,
    flagNames: {},
    store,
    wire: (exp) => realWiring(exp, { validateVariants: false }),
    signal: controller.signal,
    progress: { plain: true, intervalS: 15 },
    say: (line) => process.stderr.write(`${line}\n`),
  });
  const wallS = (performance.now() - started) / 1000;

  const s = openStore(store);
  const walls = new Map<string, number[]>();
  let all: number[] = [];
  try {
    for (const sample of s.iterateSamples(result.summary.runId, { withTranscript: false })) {
      const k = `${sample.key.scaffold}`;
      walls.set(k, [...(walls.get(k) ?? []), sample.wallMs]);
      all = all.concat(sample.wallMs);
    }
  } finally {
    s.close();
  }
  // Where a sample's time goes, from the run's log: sandbox start, agent loop, release.
  const phases = { createMs: [] as number[], agentMs: [] as number[], releaseMs: [] as number[] };
  for (const line of readFileSync(result.logPath, 'utf8').split('\n')) {
    if (!line.includes('"sample released"')) continue;
    const timing = (JSON.parse(line) as { timing?: Record<keyof typeof phases, number> }).timing;
    if (timing) for (const k of Object.keys(phases) as (keyof typeof phases)[]) phases[k].push(timing[k]);
  }
  const n = result.summary.ranHere;
  const lines = [
    `demo matrix: ${n} samples (${tasks} task(s), concurrency ${concurrency}) in ${wallS.toFixed(1)} s`,
    `throughput: ${((n / wallS) * 60).toFixed(1)} samples/min`,
    `sandbox floor (bare container lifecycle, ${floorRuns} runs one at a time): ${floorMs.toFixed(0)} ms`,
    `harness time per sample (mean wall time of one sample, loading and model server included): ${mean(all).toFixed(0)} ms = ${(mean(all) / floorMs).toFixed(1)}× the floor`,
    ...[...walls].map(([scaffold, xs]) => `  ${scaffold.padEnd(8)} ${mean(xs).toFixed(0)} ms mean over ${xs.length} samples (${(mean(xs) / floorMs).toFixed(1)}× the floor)`),
    `  phases: sandbox start ${mean(phases.createMs).toFixed(0)} ms, agent loop (model + grading) ${mean(phases.agentMs).toFixed(0)} ms, release ${mean(phases.releaseMs).toFixed(0)} ms`,
    `outcomes: passed ${result.summary.counts.passed}, failed ${result.summary.counts.failed}, evaded ${result.summary.counts.evaded}, error ${result.summary.counts.error}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
