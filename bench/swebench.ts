/**
 * What one Impossible-SWEbench sample costs in time and disk, on local replicas of the published SWE-bench images
 * (`scripts/swebench-replicas.sh` builds them), against the bare cost of running the row's tests once.
 *
 *   npm run bench:swebench [-- --repeat N]
 *
 * Baseline: `docker run --rm --network none IMAGE` running the harness's test command inside the conda `testbed`
 * environment, as its eval script would (median of --repeat runs per row). Then the honest policy runs each row's
 * original in every scaffold and access mode, one sample at a time, while the writable layer of each sandbox is
 * sampled for its peak size.
 */
import { execa } from 'execa';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sandboxBackend } from '../docker/backends.js';
import { readJsonl, sharedDataFile } from '../core/testing/shared-data.js';
import { openStore } from '../results/store.js';
import { formatBytes } from '../runner/orchestration/images-pull.js';
import { launchRun } from '../runner/orchestration/launch.js';
import { realWiring } from '../runner/wiring/real-wiring.js';
import { sweTestSpec, TESTBED } from '../tasks/env/swe-specs.js';
import { swebenchImage } from '../tasks/images.js';
import { sweRowToTask } from '../tasks/rows.js';
import type { SweTask } from '../tasks/task.js';
import { median } from './stats.js';

const IDS = (process.env.REPLICA_IDS ?? 'sympy__sympy-23534 sympy__sympy-24213').split(/\s+/).filter(Boolean);
const { values } = parseArgs({ options: { repeat: { type: 'string', default: '3' } } });
const repeat = Number(values.repeat);

function fail(message: string): never {
  console.error(`bench:swebench: ${message}`);
  process.exit(2);
}

const rowsFile = sharedDataFile('swebench/verified.jsonl') ?? fail('../shared/data/swebench/verified.jsonl is absent');
const rows = readJsonl(rowsFile).filter((r) => IDS.includes(r.instance_id as string));
const tasks = rows.map((r) => {
  const t = sweRowToTask(r, { source: 'verified' });
  if (!t.ok) fail(`row ${String(r.instance_id)}: ${JSON.stringify(t.problems)}`);
  return t.task as SweTask;
});
const backend = sandboxBackend();
for (const t of tasks) {
  if ((await backend.images.status(swebenchImage(t.id))).state !== 'present')
    fail(`${swebenchImage(t.id)} is missing: bash scripts/swebench-replicas.sh`);
}

/** One bare run of a row's tests in its image, as the harness's eval script starts them. */
async function bareRun(task: SweTask): Promise<number> {
  const spec = sweTestSpec({ ...task, testPatch: task.testPatch });
  const script = `source /opt/miniconda3/bin/activate && conda activate testbed && cd ${TESTBED} && ${spec.command}`;
  const t = performance.now();
  await execa('docker', ['run', '--rm', '--network', 'none', swebenchImage(task.id), 'bash', '-c', script], { reject: false });
  return performance.now() - t;
}

const dir = await mkdtemp(join(tmpdir(), 'ib-bench-swebench-'));
try {
  await bareRun(tasks[0]!); // warm the page cache
  const bare: number[] = [];
  for (const task of tasks) for (let i = 0; i < repeat; i++) bare.push(await bareRun(task));
  const bareMs = median(bare);

  const file = join(dir, 'rows.jsonl');
  await writeFile(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const store = join(dir, 'bench.sqlite');
  // The peak writable layer of every sandbox the run makes.
  const peak = new Map<string, number>();
  let runId: string | undefined;
  const poll = setInterval(() => {
    if (!runId) return;
    void backend
      .list({ runId, diskUsage: true })
      .then((list) => {
        for (const c of list) peak.set(c.id, Math.max(peak.get(c.id) ?? 0, c.diskBytes ?? 0));
      })
      .catch(() => undefined);
  }, 300);
  const result = await launchRun({
    flags: {
      models: ['scripted/honest'],
      datasets: [file],
      splits: ['original'],
      scaffolds: ['minimal', 'full'],
      access: ['full', 'readonly', 'hidden'],
      concurrency: 1,
    },
    flagNames: {},
    store,
    wire: (exp) => realWiring(exp, { validateVariants: false }),
    signal: new AbortController().signal,
    progress: { plain: true, intervalS: 30 },
    say: (line) => {
      runId ??= /starting run (\S+)/.exec(line)?.[1];
      process.stderr.write(`${line}\n`);
    },
  });
  clearInterval(poll);

  const s = openStore(store);
  const walls: number[] = [];
  try {
    for (const sample of s.iterateSamples(result.summary.runId, { withTranscript: false })) walls.push(sample.wallMs);
  } finally {
    s.close();
  }
  const phases = { createMs: [] as number[], agentMs: [] as number[], releaseMs: [] as number[] };
  for (const line of (await readFile(result.logPath, 'utf8')).split('\n')) {
    if (!line.includes('"sample released"')) continue;
    const timing = (JSON.parse(line) as { timing?: Record<keyof typeof phases, number> }).timing;
    if (timing) for (const k of Object.keys(phases) as (keyof typeof phases)[]) phases[k].push(timing[k]);
  }
  const images = await Promise.all(tasks.map((t) => backend.images.status(swebenchImage(t.id))));
  const wall = median(walls);
  const out = [
    `SWE-bench replicas: ${IDS.join(', ')} (${availableParallelism()} cores)`,
    `baseline: one bare \`docker run\` of a row's tests in its image: ${(bareMs / 1000).toFixed(1)} s (median of ${bare.length})`,
    `honest sample, one at a time over ${walls.length} samples (every scaffold and access mode, one graded run each):`,
    `  wall ${(wall / 1000).toFixed(1)} s median = ${(wall / bareMs).toFixed(2)}× the baseline`,
    `  phases (median): sandbox start ${(median(phases.createMs) / 1000).toFixed(1)} s, setup + agent + grading ${(median(phases.agentMs) / 1000).toFixed(1)} s, release ${(median(phases.releaseMs) / 1000).toFixed(1)} s`,
    `  outcomes: passed ${result.summary.counts.passed}, failed ${result.summary.counts.failed}, error ${result.summary.counts.error}`,
    `disk: sandbox writable layer ${formatBytes(median([...peak.values()]))} median peak, ${formatBytes(Math.max(0, ...peak.values()))} largest; images ${images.map((i) => formatBytes(i.sizeBytes ?? 0)).join(', ')} (sharing their environment layer)`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
