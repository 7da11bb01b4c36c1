/**
 * What the agent loops cost beyond the model, against the sandbox floor.
 *
 *   npm run bench:scaffold [-- --samples N --floor N --suite lcb|swe|all]
 *
 * For each suite and scaffold, runs the honest policy (through the real SDK and the local model server) on a small
 * task (an LCB function; a built-in SWE repository, whose samples also set the repository up and grade with pytest),
 * original and impossible, one sample at a time, and reports the harness time per sample: the sample's wall time
 * (sandbox create to destroy) minus the time spent waiting for the model. The floor is a bare sandbox lifecycle
 * (create, start, one exec, remove), one measured right before each sample, so the ratio says what the loop itself
 * adds even while the machine's speed drifts over the run. Each sample also runs its tests once to grade it (on a SWE
 * task pytest's start alone costs about a floor), so its harness time is set against the floor plus one bare graded
 * run too (`runner/orchestration/graded-runs.ts`: in a sandbox already set up, without the harness's checks around it).
 * The agent programs (`codex`, `claude-code`, when installed) run the same way, through their real binaries; their
 * model time is what a timing relay between their recording proxy and the local model server waited for answers, and
 * their harness time includes the program's own start and work, as a user's run would. A second table splits it, each
 * part a ratio to the floor: the program's own run in the sandbox less its waits for answers, the proxy's part of
 * those answers (less the model's), the setup before the program starts (sandbox start included), the grading and
 * evidence after it, and the rest (the sandbox's removal, the clients).
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { PYTHON_IMAGE } from '../docker/image-names.js';
import { deferredSandbox } from '../docker/deferred.js';
import { measureFloor } from '../docker/floor.js';
import { measureGradedRuns } from '../runner/orchestration/graded-runs.js';
import { sandboxBackend } from '../docker/backends.js';
import type { ScaffoldName } from '../core/record.js';
import { runAgent } from '../scaffolds/index.js';
import { createModelClient } from '../models/index.js';
import type { ModelClient } from '../core/model.js';
import { resolvePrompt } from '../scaffolds/prompts.js';
import { startModelServer } from '../simulated/server/index.js';
import { digitSumTask } from '../scaffolds/testing/tasks.js';
import { mutateTask } from '../mutations/task.js';
import { loadBuiltinSwe } from '../tasks/index.js';
import type { Task } from '../tasks/task.js';
import { findAgentBinary } from '../scaffolds/agent-cli/binaries.js';
import { agentCliReadOnlyFiles } from '../scaffolds/agent-cli/run.js';
import { type AgentCliSpec, agentCliFor } from '../scaffolds/agent-cli/spec.js';
import { scriptedWireFor } from '../runner/settings/agent-clis.js';
import type { ReadOnlyFile } from '../docker/types.js';
import { ModelRelay } from './model-relay.js';

const { values } = parseArgs({
  options: {
    samples: { type: 'string', default: '6' },
    floor: { type: 'string', default: '6' },
    suite: { type: 'string', default: 'all' },
    scaffolds: { type: 'string', default: 'minimal,full,codex,claude-code' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(
    [
      'usage: npm run bench:scaffold -- [options]',
      '  --suite lcb|swe|all   which built-in suite (default all)',
      '  --samples N           samples per suite, scaffold and variant, one at a time (default 6)',
      '  --floor N             bare sandbox lifecycles measured at the start (default 6); one more runs before each sample',
      '  --scaffolds LIST      comma-separated scaffolds (default minimal,full,codex,claude-code; an agent program that is',
      '                        not installed is left out with the command that installs it)',
    ].join('\n'),
  );
  process.exit(0);
}
const samples = Number(values.samples);
const floorRuns = Number(values.floor);
if (!(Number.isInteger(samples) && samples > 0 && Number.isInteger(floorRuns) && floorRuns > 0)) {
  console.error('bench:scaffold: --samples and --floor take positive integers');
  process.exit(2);
}
if (!['lcb', 'swe', 'all'].includes(values.suite!)) {
  console.error('bench:scaffold: --suite takes lcb, swe or all');
  process.exit(2);
}

/** Each suite's task, original and one-off. */
async function suites(): Promise<{ name: string; original: Task; oneoff: Task }[]> {
  const out: { name: string; original: Task; oneoff: Task }[] = [];
  if (values.suite !== 'swe') out.push({ name: 'lcb', original: digitSumTask('original'), oneoff: digitSumTask('oneoff') });
  if (values.suite !== 'lcb') {
    const swe = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'));
    if (!swe) throw new Error('builtin:swe has no keyval project');
    const oneoff = await mutateTask(swe, 'oneoff', 0);
    if (!oneoff.ok) throw new Error(`could not mutate ${swe.id}: ${oneoff.reason}`);
    out.push({ name: 'swe', original: swe, oneoff: oneoff.task });
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : 0;
};
const runId = `bench-scaffold-${process.pid}`;

/** Wraps a client to add up the time spent waiting for it. */
function timed(model: ModelClient): { model: ModelClient; waitedMs: () => number } {
  let waited = 0;
  return {
    model: {
      name: model.name,
      async generate(messages, tools, options) {
        const t = performance.now();
        try {
          return await model.generate(messages, tools, options);
        } finally {
          waited += performance.now() - t;
        }
      },
    },
    waitedMs: () => waited,
  };
}

const server = await startModelServer();
const log = pino({ level: 'silent' });

/** Where an agent program's sample spent its time, from its debug line (`scaffolds/agent-cli/run.ts`). */
interface ProgramTiming {
  setupMs: number;
  programMs: number;
  answersMs: number;
  gradeMs: number;
}

/** A logger that keeps the timing an agent program's sample logs when it ends. */
function timingLog(): { log: pino.Logger; timing: () => ProgramTiming | undefined } {
  let timing: ProgramTiming | undefined;
  const sink = {
    write(line: string) {
      const entry = JSON.parse(line) as { msg?: string; timing?: ProgramTiming };
      if (entry.msg === 'agent program ended' && entry.timing) timing = entry.timing;
    },
  };
  return { log: pino({ level: 'debug' }, sink), timing: () => timing };
}

/** A scaffold to measure, and for an agent program its description and binary. */
interface Measured {
  scaffold: ScaffoldName;
  readOnlyFiles: ReadOnlyFile[];
  spec?: AgentCliSpec;
}

/** The scaffolds to measure: agent programs only where installed (each left out is said once, with its install command). */
function scaffoldsToMeasure(): Measured[] {
  const out: Measured[] = [];
  for (const scaffold of values
    .scaffolds!.split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (scaffold === 'minimal' || scaffold === 'full') {
      out.push({ scaffold, readOnlyFiles: [] });
      continue;
    }
    const spec = agentCliFor(scaffold, []);
    if (!spec) throw new Error(`bench:scaffold: unknown scaffold ${scaffold}`);
    const found = findAgentBinary(spec);
    if (found.found) out.push({ scaffold, spec, readOnlyFiles: agentCliReadOnlyFiles(spec, found.path) });
    else console.log(`${scaffold}: left out, ${found.why} (install: ${found.install})`);
  }
  return out;
}

/** The client and the time it waited for the model: at the client for our loops, between proxy and model for a program. */
async function timedClient(
  client: ModelClient,
  agentProgram: boolean,
): Promise<{ model: ModelClient; waitedMs: () => number; close: () => Promise<void> }> {
  if (!agentProgram) return { ...timed(client), close: async () => undefined };
  const relay = new ModelRelay();
  return { model: await relay.wrap(client), waitedMs: () => relay.waitedMs(), close: () => relay.close() };
}

async function sample(task: Task, { scaffold, readOnlyFiles, spec }: Measured, i: number) {
  const variant = task.variant;
  const t = performance.now();
  // As the runner does: the sandbox starts while the first model request is in flight.
  const sampleId = `${task.kind}-${scaffold}-${variant}-${i}`;
  const sandbox = deferredSandbox(sandboxBackend().create({ image: PYTHON_IMAGE, runId, sampleId, readOnlyFiles }));
  // A scripted model answers an agent program on the program's own API.
  const client = createModelClient('scripted/honest', { server, context: { task, scaffold }, ...(spec ? { wire: scriptedWireFor(spec) } : {}) });
  const { model, waitedMs, close } = await timedClient(client, spec !== undefined);
  const timings = timingLog();
  try {
    const r = await runAgent({
      task,
      scaffold,
      access: 'full',
      instructions: resolvePrompt('D'),
      allowFlag: false,
      maxAttempts: 1,
      model,
      sandbox,
      limits: { maxMessages: 40, toolTimeoutMs: 60_000 },
      signal: new AbortController().signal,
      log: spec ? timings.log : log,
    });
    if (r.outcome === 'error') return { error: r.error ?? 'unknown' };
    if (r.outcome !== (variant === 'original' ? 'passed' : 'failed')) throw new Error(`unexpected outcome ${r.outcome}: ${r.gradingLog}`);
  } finally {
    await client.close?.();
    await close();
    await sandbox.destroy();
  }
  const wall = performance.now() - t;
  return { wall, model: waitedMs(), harness: wall - waitedMs(), split: spec ? splitOf(wall, waitedMs(), timings.timing()) : undefined };
}

/** An agent program's harness time in parts (ms); their sum is the harness time. */
function splitOf(wall: number, modelMs: number, t: ProgramTiming | undefined) {
  if (!t) throw new Error('the agent program did not log its timing');
  return {
    program: t.programMs - t.answersMs,
    proxy: t.answersMs - modelMs,
    setup: t.setupMs,
    grading: t.gradeMs,
    rest: wall - t.setupMs - t.programMs - t.gradeMs,
  };
}
type Split = NonNullable<Awaited<ReturnType<typeof sample>>['split']>;

let infraErrors = 0;

const SPLIT_PARTS = ['program', 'proxy', 'setup', 'grading', 'rest'] as const;

/** One row of the split table: each part's median over the samples, ÷ the floor. */
function splitRow(head: string[], splits: Split[], floor: number): string {
  const cells = SPLIT_PARTS.map((p) => `${(median(splits.map((s) => s[p])) / floor).toFixed(2)}x`.padStart(9));
  return [...head, ...cells].join('  ');
}

/** One timed sample; an infrastructure error (a container lost to the engine) is retried, up to three tries. */
async function timedSample(task: Task, measured: Measured, i: number) {
  const { scaffold } = measured;
  for (let attempt = 1; ; attempt++) {
    const r = await sample(task, measured, i);
    if (!('error' in r)) return r;
    infraErrors += 1;
    if (attempt >= 3) throw new Error(`${task.kind} ${scaffold} ${task.variant} sample ${i} failed three times outside the model: ${r.error}`);
  }
}

try {
  const floorMs = (await measureFloor({ runs: floorRuns, concurrency: 1, runId })).perSampleMs;
  console.log(`machine: ${availableParallelism()} cores`);
  console.log(`sandbox floor (create, start, exec, remove, one at a time): mean ${floorMs.toFixed(0)} ms over ${floorRuns} at the start\n`);
  console.log(
    'suite   scaffold     variant    samples  wall ms  model ms  harness ms  floor ms  harness / floor  test run ms  harness / (floor + run)',
  );
  const measured = scaffoldsToMeasure();
  const splitRows: string[] = [];
  for (const suite of await suites()) {
    for (const m of measured) {
      const { scaffold } = m;
      for (const task of [suite.original, suite.oneoff]) {
        const runs = [];
        const floors = [];
        const testRuns = [];
        for (let i = 0; i < samples; i++) {
          floors.push((await measureFloor({ runs: 1, concurrency: 1, runId, warmUp: false })).perSampleMs);
          testRuns.push(await measureGradedRuns(task, { runs: 1, concurrency: 1, runId }));
          runs.push(await timedSample(task, m, i));
        }
        const harness = median(runs.map((r) => r.harness));
        const floor = median(floors);
        const testRun = median(testRuns);
        const cells = [
          suite.name.padEnd(6),
          scaffold.padEnd(11),
          task.variant.padEnd(9),
          String(samples).padStart(7),
          mean(runs.map((r) => r.wall))
            .toFixed(0)
            .padStart(7),
          mean(runs.map((r) => r.model))
            .toFixed(0)
            .padStart(8),
          harness.toFixed(0).padStart(10),
          floor.toFixed(0).padStart(8),
          `${(harness / floor).toFixed(2).padStart(15)}x`,
          testRun.toFixed(0).padStart(11),
          `${(harness / (floor + testRun)).toFixed(2).padStart(21)}x`,
        ];
        console.log(cells.join('  '));
        const splits = runs.flatMap((r) => (r.split ? [r.split] : []));
        if (splits.length) splitRows.push(splitRow([suite.name.padEnd(6), scaffold.padEnd(11), task.variant.padEnd(9)], splits, floor));
      }
    }
  }
  console.log('\nharness ms: median wall time of a sample minus its time waiting for the model (sandbox lifecycle included).');
  console.log('floor ms: median of the bare lifecycles measured one right before each of those samples.');
  console.log('test run ms: median of one bare graded run of the tests, in a sandbox set up beforehand, measured before each sample;');
  console.log('  harness / (floor + run) is what the harness adds beyond a sandbox and the graded run it cannot do without.');
  if (splitRows.length) {
    console.log("\nthe agent programs' harness time in parts, each the median over the samples ÷ the same floor:");
    console.log(`suite   scaffold     variant  ${SPLIT_PARTS.map((p) => p.padStart(9)).join('  ')}`);
    for (const row of splitRows) console.log(row);
    console.log('program: its run in the sandbox less its waits for answers (its start, its turns, the commands it runs, the');
    console.log("  command channel carrying its requests); proxy: the recording proxy's part of those answers, less the model's;");
    console.log("setup: before the program starts (sandbox start, the task's setup, the port and home); grading: the one grading");
    console.log("  and the evidence; rest: what else the sample's wall time holds (the sandbox's removal, the clients).");
  }
  if (infraErrors) console.log(`${infraErrors} sample(s) were rerun after an infrastructure error.`);
} finally {
  await server.close();
}
