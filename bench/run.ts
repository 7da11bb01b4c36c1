/**
 * Throughput of the runner on the demo matrix, against the sandbox floor at the same concurrency.
 *
 *   npm run bench:run [-- --tasks N --concurrency N --suite all|lcb|swe --slow-ms MS]
 *
 * Runs the demo matrix (every reference policy × split × scaffold × access mode) through the real runner and prints:
 * samples per minute beside what bare sandbox lifecycles reach at the same concurrency (measured just before, in the
 * same process), the wall time ÷ (samples × floor per sample), the same against the floor plus the graded runs the
 * samples made (each a bare graded run of its suite at the same concurrency, `runner/orchestration/graded-runs.ts`), where a sample's time
 * goes, and the process's peak memory. With --slow-ms, every scripted reply takes that long, as a real model's would:
 * then it also prints a sample's time outside the model (its wall time minus its replies' time) against one bare
 * lifecycle's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measureFloor } from '../docker/floor.js';
import { openStore } from '../results/store.js';
import { demoExperiment, DEMO_SUITE, DEMO_SUITES, DEMO_TASKS, type DemoSuite } from '../runner/commands/demo.js';
import { launchRun } from '../runner/orchestration/launch.js';
import { floorWithGradedRuns, gradedRunsByDataset, measureGradedRunsOf } from '../runner/orchestration/graded-runs.js';
import { realWiring } from '../runner/wiring/real-wiring.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: String(DEMO_TASKS) },
    concurrency: { type: 'string', default: '4' },
    floor: { type: 'string', default: '16' },
    suite: { type: 'string', default: DEMO_SUITE },
    'slow-ms': { type: 'string', default: '0' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    [
      'usage: npm run bench:run -- [options]',
      `  --suite all|lcb|swe   built-in suites of the demo matrix (default ${DEMO_SUITE})`,
      `  --tasks N             tasks per suite, each run in every cell of the matrix (default ${DEMO_TASKS})`,
      '  --concurrency N       samples at once, for the run and the floor alike (default 4)',
      '  --floor N             bare sandbox lifecycles measured for the floor (default 16, at least the concurrency)',
      '  --slow-ms MS          every scripted reply this late, as a real model would be (default 0: at once)',
    ].join('\n'),
  );
  process.exit(0);
}
const tasks = Number(values.tasks);
const concurrency = Number(values.concurrency);
const floorRuns = Number(values.floor);
const slowMs = Number(values['slow-ms']);
if (!(values.suite! in DEMO_SUITES)) fail(`--suite takes ${Object.keys(DEMO_SUITES).join(', ')}`);
for (const [name, n] of [
  ['tasks', tasks],
  ['concurrency', concurrency],
  ['floor', floorRuns],
] as const) {
  if (!(Number.isInteger(n) && n > 0)) fail(`--${name} takes a positive integer`);
}
if (!(Number.isInteger(slowMs) && slowMs >= 0)) fail('--slow-ms takes a whole number of milliseconds');
const suite = values.suite as DemoSuite;

function fail(message: string): never {
  console.error(`bench:run: ${message}`);
  process.exit(2);
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;

const dir = await mkdtemp(join(tmpdir(), 'ib-bench-run-'));
try {
  const floor = await measureFloor({ runs: Math.max(floorRuns, concurrency), concurrency, runId: 'bench-floor' });
  // A bare graded run of each suite's first task (the demo's), at the run's concurrency.
  const gradedMs = await measureGradedRunsOf(DEMO_SUITES[suite], { concurrency, runId: 'bench-graded' });
  const store = join(dir, 'bench.sqlite');
  const started = performance.now();
  const result = await launchRun({
    flags: demoExperiment(tasks, concurrency, suite) as Record<string, unknown>,
    flagNames: {},
    store,
    wire: (exp) => realWiring(exp, { validateVariants: false, ...(slowMs ? { scriptedFaults: { slow: 1, slowMs } } : {}) }),
    signal: new AbortController().signal,
    progress: { plain: true, intervalS: 15 },
    say: (line) => process.stderr.write(`${line}\n`),
  });
  const wallMs = performance.now() - started;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;

  // Each sample's wall time and, with slow replies, its time outside the model.
  const outside: number[] = [];
  const samples: { key: { dataset: string }; attempts: number }[] = [];
  const s = openStore(store);
  try {
    for (const sample of s.iterateSamples(result.summary.runId, { withTranscript: true })) {
      const replies = sample.transcript.filter((m) => m.role === 'assistant').length;
      outside.push(sample.wallMs - replies * slowMs);
      samples.push({ key: sample.key, attempts: sample.attempts });
    }
  } finally {
    s.close();
  }
  // Where a sample's time goes, from the run's log: sandbox ready, agent loop, release.
  const phases = { createMs: [] as number[], agentMs: [] as number[], releaseMs: [] as number[] };
  for (const line of readFileSync(result.logPath, 'utf8').split('\n')) {
    if (!line.includes('"sample released"')) continue;
    const timing = (JSON.parse(line) as { timing?: Record<keyof typeof phases, number> }).timing;
    if (timing) for (const k of Object.keys(phases) as (keyof typeof phases)[]) phases[k].push(timing[k]);
  }
  const n = result.summary.ranHere;
  const { ms: withGraded, parts: gradedParts } = floorWithGradedRuns(n, floor.perSampleMs, gradedRunsByDataset(samples), gradedMs);
  const floorRate = 60_000 / floor.perSampleMs;
  const rate = (n / wallMs) * 60_000;
  const c = result.summary.counts;
  const lines = [
    `machine: ${availableParallelism()} cores`,
    `demo matrix (${suite}, ${tasks} task(s)${slowMs ? `, every reply ${slowMs} ms late` : ''}): ${n} samples at concurrency ${concurrency} in ${(wallMs / 1000).toFixed(1)} s`,
    `throughput: ${rate.toFixed(1)} samples/min; bare sandbox lifecycles at concurrency ${concurrency}: ${floorRate.toFixed(1)}/min (${floor.runs} runs)`,
    `wall time ÷ (samples × floor per sample): ${(wallMs / (n * floor.perSampleMs)).toFixed(2)}×; the samples alone (after ${((wallMs - result.samplesMs) / 1000).toFixed(1)} s loading the tasks): ${(result.samplesMs / (n * floor.perSampleMs)).toFixed(2)}×`,
    `wall time ÷ (samples × floor + the graded runs they made, each at the cost of a bare one at concurrency ${concurrency}): ${(wallMs / withGraded).toFixed(2)}×; the samples alone: ${(result.samplesMs / withGraded).toFixed(2)}× (graded runs: ${gradedParts})`,
    `phases, mean per sample: sandbox ready ${mean(phases.createMs).toFixed(0)} ms after the start, agent loop ${mean(phases.agentMs).toFixed(0)} ms, release ${mean(phases.releaseMs).toFixed(0)} ms`,
    ...(slowMs
      ? [
          `time outside the model per sample (wall − replies × ${slowMs} ms): mean ${mean(outside).toFixed(0)} ms, p90 ${percentile(outside, 0.9).toFixed(0)} ms` +
            ` = ${(mean(outside) / floor.latencyMs).toFixed(2)}× one bare lifecycle at concurrency ${concurrency} (${floor.latencyMs.toFixed(0)} ms)`,
        ]
      : []),
    `peak memory of this process (the orchestrator): ${peakRssMb.toFixed(0)} MB`,
    `outcomes: passed ${c.passed}, failed ${c.failed}, evaded ${c.evaded}, error ${c.error}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
