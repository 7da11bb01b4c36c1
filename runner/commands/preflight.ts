import type { Command } from 'commander';
import { z } from 'zod';
import { resolve } from 'node:path';
import { sandboxBackend } from '../../docker/backends.js';
import { DEFAULT_STORE_FILE, openStore, type ResultStore } from '../../results/store.js';
import { describeLimits, taskSandboxLimits } from '../../tasks/env/sandbox-limits.js';
import { UserError } from '../../core/errors.js';
import { mergeSettings, parseExperiment, type Experiment } from '../settings/config.js';
import { handleInterrupts } from '../orchestration/interrupt.js';
import { imagesPullCommand, missingImagesText } from '../orchestration/missing-images.js';
import { preflight, type PreflightReport } from '../orchestration/preflight.js';
import { baseSettings } from '../settings/presets.js';
import { dockerHosts, positiveNumber } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';
import {
  concurrencyField,
  cpusField,
  memoryField,
  IMAGE_NAMING_OPTIONS,
  limitField,
  repeatableText,
  SANDBOX_BACKEND_OPTIONS,
  seedField,
  storeField,
  switchField,
  textField,
} from '../settings/shared-options.js';

/** The options of `preflight`, in the order the help lists them; none has a default here, so a config file's value holds. */
const PreflightOptionsSchema = z.object({
  dataset: repeatableText('--dataset <name>', 'dataset, repeatable: builtin:swe, hf:OWNER/NAME, or a .json/.jsonl/.parquet file of SWE-bench rows'),
  split: repeatableText('--split <split>', 'original | oneoff | conflicting, repeatable: the splits whose tasks to check (default all three)'),
  limit: limitField('at most n tasks per dataset, the same tasks `run --limit` picks'),
  shuffle: switchField('--shuffle', 'shuffle the tasks (with --seed) before --limit'),
  seed: seedField('seed for the shuffle'),
  cpus: cpusField(
    "CPUs of each sandbox, as the run will set them (default 2 for a repository, or what the SWE-bench harness's spec gives it if more)",
  ),
  memory: memoryField('memory of each sandbox, as the run will set it (default 4096 for a repository)'),
  toolTimeout: setting(z.number().positive().optional(), {
    flag: '--tool-timeout <seconds>',
    help: 'as the run will set it: a grading gets this, and never under 15 minutes',
    parse: positiveNumber,
  }),
  concurrency: concurrencyField('reference runs side by side (default 4)'),
  store: storeField(`SQLite results store the runs are kept in (default ./${DEFAULT_STORE_FILE})`),
  config: textField('--config <file>', 'take the datasets, selection and limits from an experiment file, as `run --config` does'),
  preset: textField('--preset <name>', 'take them from a shipped configuration, as `run --preset` does'),
  ...IMAGE_NAMING_OPTIONS,
  ...SANDBOX_BACKEND_OPTIONS,
});
type PreflightFlags = z.infer<typeof PreflightOptionsSchema>;

/** The tasks and limits to check: the preset's and config file's, with the flags over them, as `run` reads them. */
async function preflightSettings(flags: PreflightFlags): Promise<Experiment> {
  const base = await baseSettings({ preset: flags.preset, config: flags.config });
  const given = {
    datasets: flags.dataset,
    splits: flags.split,
    limit: flags.limit,
    shuffle: flags.shuffle,
    seed: flags.seed,
    concurrency: flags.concurrency,
    images: { namespace: flags.imageNamespace, tag: flags.imageTag, arch: flags.imageArch },
    limits: { cpus: flags.cpus, memoryMb: flags.memory, toolTimeoutS: flags.toolTimeout },
  };
  const settings = mergeSettings({ models: ['scripted/honest'], ...(base?.settings ?? {}) }, given);
  if (settings.datasets === undefined)
    throw new UserError('no dataset given', 'pass --dataset (e.g. --dataset hf:fjzzq2002/impossible_swebench) or --config FILE');
  return parseExperiment(settings, (field) => (base && (given as Record<string, unknown>)[field] === undefined ? base.path : `--${field}`));
}

/** Per repository: tasks, how many resolve, how many are environment-broken, how many graded tests skip. */
export function repositoryTable(report: PreflightReport): string[] {
  const byRepo = new Map<string, { tasks: number; resolve: number; broken: number; skipped: number }>();
  for (const t of report.tasks) {
    const row = byRepo.get(t.task.repo) ?? { tasks: 0, resolve: 0, broken: 0, skipped: 0 };
    row.tasks++;
    if (t.outcome.resolved) row.resolve++;
    else row.broken++;
    row.skipped += Object.values(t.outcome.reference?.statuses ?? {}).filter((s) => s === 'SKIPPED').length;
    byRepo.set(t.task.repo, row);
  }
  const head = ['repository', 'tasks', 'resolve', 'environment-broken', 'graded tests skipped'];
  const rows = [...byRepo].sort(([a], [b]) => a.localeCompare(b)).map(([repo, r]) => [repo, r.tasks, r.resolve, r.broken, r.skipped].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** What the preflight found, for the terminal: the table, each broken task and why, the skips grading forgives. */
export function preflightText(report: PreflightReport, experiment: Experiment, store: string): string[] {
  const out: string[] = [];
  if (report.tasks.length === 0) out.push('no SWE task to check');
  else out.push('', ...repositoryTable(report));
  const broken = report.tasks.filter((t) => !t.outcome.resolved);
  if (broken.length) out.push('', `environment-broken (a run leaves them out):`);
  for (const t of broken) {
    out.push(`  ${t.task.id} (${describeLimits(taskSandboxLimits(t.task, experiment.limits))}): ${t.outcome.reason}`);
    const f = t.finding;
    if (!f) continue;
    if (!f.resolvesUnlimited)
      out.push('    without CPU and memory limits it does not resolve either: the image or the task is at fault, not the limits');
    else {
      out.push(`    with that limit lifted it resolves: ${f.limit} makes the difference`);
      for (const test of f.tests) out.push(`      ${test}`);
    }
  }
  const skipping = report.tasks.filter((t) => t.outcome.resolved && Object.values(t.outcome.reference?.statuses ?? {}).includes('SKIPPED'));
  if (skipping.length) out.push('', 'graded tests that skip here (a sample is not failed for them, as the reference run skips them too):');
  for (const t of skipping) {
    for (const [id, s] of Object.entries(t.outcome.reference!.statuses)) {
      if (s === 'SKIPPED')
        out.push(`  ${t.task.id}: ${id}${t.outcome.reference!.skipReasons[id] ? ` (${t.outcome.reference!.skipReasons[id]})` : ''}`);
    }
  }
  if (report.otherTasks) out.push('', `${report.otherTasks} function task(s) need no reference run`);
  if (report.missing.length)
    out.push('', ...missingImagesText(report.missing, 'so their tasks were not checked'), `  get them with: ${imagesPullCommand(experiment)}`);
  if (report.tasks.length)
    out.push('', `reference runs kept in ${store}: \`impossiblebench run\` with the same store, images and limits takes them from there`);
  return out;
}

async function preflightAction(flags: PreflightFlags): Promise<void> {
  const experiment = await preflightSettings(flags);
  const interrupts = handleInterrupts();
  const storePath = resolve(flags.store ?? DEFAULT_STORE_FILE);
  let store: ResultStore | undefined;
  try {
    const backend = sandboxBackend(flags.sandbox, dockerHosts(flags.dockerHost));
    await backend.connect();
    const report = await preflight(experiment, {
      backend,
      store: () => (store ??= openStore(storePath)),
      say: (line) => process.stderr.write(`${line}\n`),
      signal: interrupts.signal,
    });
    for (const line of preflightText(report, experiment, flags.store ?? DEFAULT_STORE_FILE)) console.log(line);
    if (report.missing.length > 0 || report.tasks.some((t) => !t.outcome.resolved)) process.exitCode = 3;
  } catch (err) {
    if (interrupts.signal.aborted) {
      process.exitCode = 130;
      return;
    }
    throw err;
  } finally {
    interrupts.dispose();
    store?.close();
  }
}

export function register(program: Command): void {
  const command = program
    .command('preflight')
    .summary("check a dataset's SWE tasks in this environment before paying for a sweep")
    .description(
      'Makes the reference run of each SWE task a run would pick with the same flags: the gold patch on the original tests, ' +
        "in the task's image (published or local) under the run's CPU and memory limits. Prints per repository how many " +
        'resolve, which are environment-broken (a run leaves them out) and why, and which graded tests skip here. A broken ' +
        'task is run again without limits, to say which limit made the difference. The runs are kept in the store, where ' +
        '`impossiblebench run` finds them.\n\nExit status: 0 when every task resolves, 3 when some are environment-broken or ' +
        'their images are missing, 130 when interrupted, 1 on an error.',
    );
  addCommandOptions(command, PreflightOptionsSchema).action(() => preflightAction(commandOptions(command, PreflightOptionsSchema)));
}
