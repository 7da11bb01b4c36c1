import type { Command } from 'commander';
import { z } from 'zod';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { sandboxBackend } from '../../docker/backends.js';
import { measureFloor, type SandboxFloor } from '../../docker/floor.js';
import { openStore } from '../../results/store.js';
import { POLICY_NAMES } from '../../simulated/policies/index.js';
import type { ExperimentInput } from '../settings/config.js';
import { handleInterrupts } from '../orchestration/interrupt.js';
import { checkKnownAnswers, formatChecks } from '../output/known-answers.js';
import { launchRun } from '../orchestration/launch.js';
import { realWiring } from '../wiring/real-wiring.js';
import { writeHtmlReport } from '../output/report-file.js';
import { displayPath, printRunEnd } from '../output/summary.js';
import { dockerHosts, wholeNumber } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';
import { concurrencyField, SANDBOX_BACKEND_OPTIONS, storeField, switchField, TEMPLATE_OPTIONS } from '../settings/shared-options.js';
import { readTemplateOverride } from '../../scaffolds/templates.js';
import { floorWithGradedRuns, gradedRunsByDataset, measureGradedRunsOf } from '../orchestration/graded-runs.js';
import { totalCapacity } from '../../docker/hosts.js';

/** Defaults sized so the whole demo finishes in a few minutes on two cores. */
export const DEMO_TASKS = 1;
export const DEMO_MAX_ATTEMPTS = 3;

/** Which built-in suites the demo runs: both by default (a few minutes on 2 cores); one alone for a quicker look. */
export const DEMO_SUITES = { lcb: ['builtin:lcb'], swe: ['builtin:swe'], all: ['builtin:lcb', 'builtin:swe'] } as const;
export type DemoSuite = keyof typeof DEMO_SUITES;
export const DEMO_SUITE: DemoSuite = 'all';

/** The options of `demo`, in the order the help lists them. */
const DemoOptionsSchema = z.object({
  out: setting(z.string().min(1).default('impossiblebench-demo'), {
    flag: '--out <dir>',
    help: 'folder for report.html (and the store, unless --store)',
  }),
  store: storeField('SQLite results store (default OUT/demo.sqlite)'),
  concurrency: concurrencyField('samples (sandboxes) in flight at once', 4),
  tasks: setting(z.number().int().min(1).default(DEMO_TASKS), {
    flag: '--tasks <n>',
    help: 'how many built-in tasks to use (each runs in every cell of the matrix)',
    parse: wholeNumber(1),
  }),
  suite: setting(z.enum(Object.keys(DEMO_SUITES) as [DemoSuite, ...DemoSuite[]]).default(DEMO_SUITE), {
    flag: '--suite <suite>',
    help: 'built-in suites to run: all (both), lcb (LiveCodeBench-style functions, about 1 minute on 2 cores) or swe (SWE-style repositories, about 2)',
  }),
  plain: switchField('--plain', 'plain progress lines even on a terminal'),
  ...SANDBOX_BACKEND_OPTIONS,
  ...TEMPLATE_OPTIONS,
});
type DemoFlags = z.infer<typeof DemoOptionsSchema>;

/** The demo's experiment: every reference policy over every split, scaffold and access mode. */
export function demoExperiment(tasks: number, concurrency: number, suite: DemoSuite = DEMO_SUITE): ExperimentInput {
  return {
    models: POLICY_NAMES.map((p) => `scripted/${p}`),
    datasets: [...DEMO_SUITES[suite]],
    splits: ['original', 'oneoff', 'conflicting'],
    scaffolds: ['minimal', 'full'],
    access: ['full', 'readonly', 'hidden'],
    prompts: ['D'],
    maxAttempts: [DEMO_MAX_ATTEMPTS],
    limit: tasks,
    seed: 0,
    concurrency,
    // The flag policy needs the abort option; the others ignore it.
    allowFlag: true,
  };
}

async function demoAction(flags: DemoFlags, concurrencyGiven: boolean): Promise<void> {
  // Bad templates are found before the floor is measured.
  for (const [name, file] of Object.entries(flags.template ?? {})) readTemplateOverride(name, file, '--template');
  const hosts = dockerHosts(flags.dockerHost);
  const backend = sandboxBackend(flags.sandbox, hosts);
  // With a pool, the engines' total capacity unless --concurrency says otherwise.
  if (hosts.length > 0 && !concurrencyGiven) flags.concurrency = totalCapacity(hosts);
  const out = resolve(flags.out);
  mkdirSync(out, { recursive: true });
  const storePath = resolve(flags.store ?? join(out, 'demo.sqlite'));
  const interrupts = handleInterrupts();
  try {
    const experiment = {
      ...demoExperiment(flags.tasks, flags.concurrency, flags.suite),
      sandbox: backend.name,
      ...(hosts.length > 0 ? { dockerHosts: hosts } : {}),
      ...(flags.template ? { templates: flags.template } : {}),
    };
    const say = (line: string) => process.stderr.write(`${line}\n`);
    say(
      `demo: ${POLICY_NAMES.length} policies × 3 splits × 2 scaffolds × 3 access modes on ${flags.tasks} task(s) of ${DEMO_SUITES[flags.suite].join(' and ')}`,
    );
    // The floor the run's wall time is held against: bare sandbox lifecycles at the run's concurrency.
    say(`measuring the floor: ${4 * flags.concurrency} bare sandbox lifecycles, ${flags.concurrency} at a time...`);
    const floor = await measureFloor({ runs: 4 * flags.concurrency, concurrency: flags.concurrency, runId: 'demo-floor', backend });
    // And what a graded run costs alone: the floor plus the samples' graded runs is what no harness can go below.
    say(`measuring a bare graded run of each suite: ${2 * flags.concurrency} runs of its first task, ${flags.concurrency} at a time...`);
    const gradedMs = await measureGradedRunsOf(DEMO_SUITES[flags.suite], { concurrency: flags.concurrency, runId: 'demo-graded', backend });
    const started = performance.now();
    const result = await launchRun({
      flags: experiment as Record<string, unknown>,
      flagNames: { templates: '--template' },
      store: storePath,
      wire: (exp, { store }) => realWiring(exp, { validateVariants: true, say, signal: interrupts.signal, store }),
      signal: interrupts.signal,
      progress: { plain: flags.plain === true },
      say,
    });
    const wallMs = performance.now() - started;
    printRunEnd(result, { reportHint: false });
    const store = openStore(storePath, { mustExist: true });
    let checks: ReturnType<typeof checkKnownAnswers>;
    try {
      const samples = store.listSamples(result.summary.runId, { withTranscript: false });
      if (result.summary.ranHere > 0) {
        const graded = floorWithGradedRuns(result.summary.ranHere, floor.perSampleMs, gradedRunsByDataset(samples), gradedMs);
        process.stdout.write(`\n${overheadLines(result.summary.ranHere, wallMs, result.samplesMs, floor, graded)}\n`);
      }
      checks = checkKnownAnswers(samples);
    } finally {
      store.close();
    }
    process.stdout.write(`\nknown answers:\n${formatChecks(checks)}\n`);
    const reportPath = join(out, 'report.html');
    await writeHtmlReport(storePath, result.summary.runId, reportPath);
    process.stdout.write(`\nreport: ${displayPath(reportPath)} (open it in a browser; it loads nothing from the network)\n`);
    if (result.summary.status === 'interrupted') process.exitCode = 130;
    else if (checks.some((c) => c.broken.length > 0)) {
      process.stderr.write('impossiblebench: some known answers do not hold: the harness, not the policies, is wrong\n');
      process.exitCode = 1;
    }
  } finally {
    interrupts.dispose();
  }
}

export function register(program: Command): void {
  const demo = program
    .command('demo')
    .summary('the whole pipeline on the built-in suites with scripted policies: no API key needed')
    .description(
      'Makes and validates the impossible variants of the built-in suites (LiveCodeBench-style functions and SWE-style ' +
        'repositories; --suite picks one), then runs every reference ' +
        'policy (honest, modify-tests, special-case, operator-overload, record-state, exit-early, flag, give-up, forge-report, plugin, ' +
        'skip-tests) through the ' +
        'local model server and the real OpenAI and Anthropic SDKs, over splits × scaffolds × access modes, in Docker sandboxes.\n\n' +
        'Prints the table, checks the known answers (honest never passes an impossible variant, ...) and writes report.html. ' +
        "Measures bare sandbox lifecycles and bare graded runs first, and prints the run's overhead against both.",
    );
  addCommandOptions(demo, DemoOptionsSchema).action(() =>
    demoAction(commandOptions(demo, DemoOptionsSchema), demo.getOptionValueSource('concurrency') !== undefined),
  );
}

/**
 * The demo's wall time against the floor, and the samples' own share of it: the wall time also holds loading the tasks
 * and making and validating their variants, which a run pays once, not per sample. Then the same against the floor plus
 * the graded runs the samples made: what the harness adds beyond the sandboxes and the tests it must run.
 */
export function overheadLines(
  samples: number,
  wallMs: number,
  samplesMs: number,
  floor: SandboxFloor,
  graded: { ms: number; parts: string },
): string {
  const floorMs = samples * floor.perSampleMs;
  return (
    `overhead: ${samples} samples in ${(wallMs / 1000).toFixed(0)} s = ${(wallMs / floorMs).toFixed(2)}× the floor ` +
    `(${samples} × ${(floor.perSampleMs / 1000).toFixed(2)} s, a bare sandbox lifecycle at concurrency ${floor.concurrency}, on ${availableParallelism()} cores); ` +
    `the samples alone ${(samplesMs / 1000).toFixed(0)} s = ${(samplesMs / floorMs).toFixed(2)}×, after ${((wallMs - samplesMs) / 1000).toFixed(0)} s loading the tasks and validating their variants\n` +
    `overhead beyond the tests: ${(wallMs / graded.ms).toFixed(2)}× the floor plus the graded runs the samples made, each at the cost of a bare one ` +
    `at concurrency ${floor.concurrency} (${graded.parts}); the samples alone ${(samplesMs / graded.ms).toFixed(2)}×`
  );
}
