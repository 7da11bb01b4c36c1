import type { Command } from 'commander';
import { z } from 'zod';
import { mutationKind } from '../../mutations/kinds/registry.js';
import { existsSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { type MutateOptions, mutateTasks } from '../../mutations/dataset.js';
import { DEFAULT_MAX_TRIES } from '../../mutations/retry.js';
import { baseTestFiles, imageTestFiles } from '../../mutations/swe/repo-files.js';
import { MODEL_PROMPT_FILE, modelPromptFile } from '../../mutations/swe/model-prompt.js';
import { createModelClient } from '../../models/factory.js';
import { parseModelSpec } from '../../models/spec.js';
import type { SweTask, Task } from '../../tasks/task.js';
import { MUTATION_TYPES } from '../../mutations/outcome.js';
import { progressLine } from '../../mutations/progress.js';
import { taskRow } from '../../mutations/task.js';
import { writeLinesAtomic } from '../../core/atomic-write.js';
import { readDataset } from '../../tasks/load.js';
import { formatProblem } from '../../tasks/rows.js';
import { sandboxBackend } from '../../docker/backends.js';
import { historyImages } from '../orchestration/history-images.js';
import { DEFAULT_TOOL_TIMEOUT_S } from '../settings/config.js';
import { ReferenceRuns } from '../orchestration/references.js';
import { openStore, type ResultStore } from '../../results/store.js';
import { sweGradeTimeoutMs } from '../../tasks/env/swe.js';
import { tasksByImage } from '../../tasks/images.js';
import { UserError } from '../../core/errors.js';
import { shellArg } from '../output/shell-arg.js';
import { dockerHosts, imageNaming, wholeNumber } from '../settings/shared-flags.js';
import { totalCapacity } from '../../docker/hosts.js';
import { handleInterrupts } from '../orchestration/interrupt.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';
import {
  baseUrlField,
  concurrencyField,
  cpusField,
  memoryField,
  HUB_CACHE_OPTIONS,
  IMAGE_NAMING_OPTIONS,
  limitField,
  requiredText,
  SANDBOX_BACKEND_OPTIONS,
  seedField,
  storeField,
  switchField,
  textField,
} from '../settings/shared-options.js';

/** The options of `mutate`, in the order the help lists them. */
export const MutateOptionsSchema = z.object({
  dataset: requiredText(
    '--dataset <dataset>',
    'builtin:lcb, builtin:swe, hf:OWNER/NAME, or a .json/.jsonl/.parquet file (original tests are read from every row)',
  ),
  type: setting(z.enum(MUTATION_TYPES), { flag: '--type <type>', help: 'which impossible variant to make' }),
  seed: seedField('seed of the choices (same input and seed: byte-identical output)', 0),
  validate: switchField(
    '--validate',
    'check every variant in a sandbox and leave out the ones that fail (LCB: the reference solution passes the original and fails the variant at the mutated assertion, a stub fails; SWE: the gold patch passes the original tests and fails the target, an empty patch fails)',
  ),
  out: requiredText('--out <file.jsonl>', 'where to write the variants (written whole or not at all)'),
  limit: limitField('only the first N tasks'),
  concurrency: concurrencyField("sandboxes used side by side when validating (default 2; with --docker-host, the engines' total capacity)"),
  cpus: cpusField(
    "with --validate, CPUs of each sandbox, as a run sets them (default 1 for LiveCodeBench-style tasks; for a repository 2, or what the SWE-bench harness's spec gives it if more)",
  ),
  memory: memoryField('with --validate, memory of each SWE sandbox, as a run sets it (default 4096)'),
  store: storeField(
    "with --validate, a results store to take the SWE tasks' reference runs (the gold patch on the original tests) from and keep them in, as `run` and `preflight` do",
  ),
  ...HUB_CACHE_OPTIONS,
  repo: textField(
    '--repo <dir>',
    "a local git repository holding the SWE rows' base commits: the engine may then read whole test files, not just the patch",
  ),
  model: textField('--model <provider/name>', 'ask this model for the variants the engine cannot make (validate them with --validate)'),
  promptFile: textField('--prompt-file <file>', `the model's prompt template (default: the shipped ${MODEL_PROMPT_FILE})`),
  baseUrl: baseUrlField("the model server's address, for openai-compatible models"),
  maxTries: setting(z.number().int().min(1).default(DEFAULT_MAX_TRIES), {
    flag: '--max-tries <n>',
    help: "with --validate, candidates validated per row at most: when the reference (gold patch or solution) passes a variant (not impossible) or an empty one does (it states what the unfixed code does), the engine's next candidate for that row is made and validated instead",
    parse: wholeNumber(1),
  }),
  ...IMAGE_NAMING_OPTIONS,
  ...SANDBOX_BACKEND_OPTIONS,
});
type MutateFlags = z.infer<typeof MutateOptionsSchema>;

/** Where whole test files come from: a local git repository holding the rows' base commits. */
function baseFilesFrom(repo: string | undefined): ((task: SweTask) => Promise<ReadonlyMap<string, string> | undefined>) | undefined {
  if (!repo) return undefined;
  if (!existsSync(repo))
    throw new UserError(`--repo ${repo} does not exist`, "name a git clone (or a bare repository) that holds the rows' base commits");
  return async (task) => {
    try {
      return await baseTestFiles(repo, task.baseCommit, task.originalTestPatch);
    } catch {
      return undefined;
    }
  };
}

/** The model asked for variants the engine cannot make, with its prompt template. */
function fallbackModel(flags: MutateFlags): MutateOptions['model'] {
  if (!flags.model) {
    if (flags.promptFile || flags.baseUrl) throw new UserError('--prompt-file and --base-url need --model');
    return undefined;
  }
  if (parseModelSpec(flags.model).provider === 'scripted')
    throw new UserError(`--model ${flags.model}: scripted models are stand-ins for tests`, 'name a real model, e.g. openai/gpt-5');
  const client = createModelClient(flags.model, flags.baseUrl ? { baseUrl: flags.baseUrl } : {});
  return { client, template: modelPromptFile(flags.promptFile) };
}

/** The dataset's rows to mutate (at most --limit), with the rows it skipped said. */
async function tasksToMutate(flags: MutateFlags, images: ReturnType<typeof imageNaming>) {
  const report = await readDataset(flags.dataset, {
    images,
    ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}),
    ...(flags.offline ? { offline: true } : {}),
    say: (line) => process.stderr.write(`${line}\n`),
  });
  for (const p of report.problems.slice(0, 10)) process.stderr.write(`skipped row: ${formatProblem(p)}\n`);
  if (report.problems.length > 10) process.stderr.write(`… and ${report.problems.length - 10} more skipped rows\n`);
  const tasks = flags.limit ? report.tasks.slice(0, flags.limit) : report.tasks;
  if (tasks.length === 0) throw new UserError(`${flags.dataset} has no usable rows to mutate`);
  return tasks;
}

/** `--out` names a .jsonl file in a folder that exists, checked before any work. */
function checkOutFile(out: string): void {
  if (extname(out) !== '.jsonl') throw new UserError(`--out must name a .jsonl file, got ${out}`);
  const outDir = dirname(resolve(out));
  if (!existsSync(outDir)) throw new UserError(`cannot write ${out}: folder ${outDir} does not exist`);
}

/** The images validation would need that the engine lacks, said: their variants cannot be validated. */
async function missingImages(backend: ReturnType<typeof sandboxBackend>, tasks: Task[]): Promise<Set<string>> {
  const missing = new Set(await backend.images.missing(tasksByImage(tasks).keys()));
  if (missing.size > 0) {
    process.stderr.write(
      `${missing.size} image(s) missing: ${[...missing].slice(0, 3).join(', ')}${missing.size > 3 ? ', …' : ''}; their variants cannot be validated\n`,
    );
  }
  return missing;
}

/** Each kept variant's validation evidence, after the candidates dropped before it and why. */
function printKept(result: Awaited<ReturnType<typeof mutateTasks>>): void {
  for (const t of result.variants) {
    for (const [i, d] of (t.mutation?.dropped ?? []).entries())
      console.log(`dropped ${t.id} candidate ${i + 1} (${d.strategy}, line ${d.line}): ${d.reason}`);
    const evidence = result.verdicts?.get(t.id)?.evidence;
    const tries = t.mutation?.tries ? ` (candidate ${t.mutation.tries}, ${t.mutation.strategy})` : '';
    if (evidence?.length) console.log(`kept ${t.id}${tries}: ${evidence.join('; ')}`);
  }
}

async function mutateAction(flags: MutateFlags): Promise<void> {
  const hosts = dockerHosts(flags.dockerHost);
  const backend = sandboxBackend(flags.sandbox, hosts);
  const concurrency = flags.concurrency ?? (hosts.length > 0 ? totalCapacity(hosts) : 2);
  checkOutFile(flags.out);
  const images = imageNaming(flags);
  // Without a clone, validation's own images hold each repository at its base commit.
  const baseFiles =
    baseFilesFrom(flags.repo) ??
    (flags.validate ? (task: SweTask) => imageTestFiles(task, { runId: `mutate-${process.pid}`, backend }).catch(() => undefined) : undefined);
  const model = fallbackModel(flags);
  const tasks = await tasksToMutate(flags, images);
  const interrupts = handleInterrupts({ onFirst: () => process.stderr.write('\nstopping; nothing is written\n') });
  const bars = { mutate: progressLine('mutating', 0), validate: progressLine('validating', 0) };
  let current: 'mutate' | 'validate' | undefined;
  const history = historyImages(backend, interrupts.signal);
  const limits = { cpus: flags.cpus, memoryMb: flags.memory };
  let store: ResultStore | undefined;
  // The gold patch's runs on the original tests are the tasks' reference runs: kept in the store, as a run keeps them.
  const references =
    flags.validate && flags.store
      ? new ReferenceRuns({
          backend,
          limits,
          timeoutMs: sweGradeTimeoutMs(DEFAULT_TOOL_TIMEOUT_S * 1000),
          store: () => (store ??= openStore(flags.store!)),
          imageFor: (task, sandbox) => history.imageFor(task, sandbox),
          runId: `mutate-${process.pid}`,
          signal: interrupts.signal,
        })
      : undefined;
  try {
    const missing = flags.validate ? await missingImages(backend, tasks) : new Set<string>();
    const fix = `impossiblebench images pull --dataset ${shellArg(flags.dataset)}${flags.limit ? ` --limit ${flags.limit}` : ''}`;
    const result = await mutateTasks(tasks, flags.type, flags.seed, {
      validate: flags.validate ?? false,
      ...(missing.size > 0 ? { missingImages: { images: missing, fix } } : {}),
      concurrency,
      runId: `mutate-${process.pid}`,
      backend,
      imageFor: (task, sandbox) => history.imageFor(task, sandbox),
      ...(baseFiles ? { baseFiles } : {}),
      ...(model ? { model } : {}),
      maxTries: flags.maxTries,
      limits,
      ...(references ? { original: (task: SweTask) => references.original(task) } : {}),
      signal: interrupts.signal,
      onProgress: (stage, done, total) => {
        if (current !== stage) {
          if (current) bars[current].end();
          current = stage;
          bars[stage] = progressLine(stage === 'mutate' ? 'mutating' : 'validating in Docker', total);
        }
        bars[stage].tick(done, undefined, total);
      },
    });
    if (current) bars[current].end();
    const lines = result.variants.map((t) => JSON.stringify(taskRow(t)));
    await writeLinesAtomic(flags.out, lines);
    printOutcome(result, flags);
  } finally {
    store?.close();
    await history.removeAll().catch(() => undefined);
    await model?.client.close?.();
    interrupts.dispose();
  }
}

/** What became of each task, and the counts; the exit status is 1 when some could not be validated or their environment is broken. */
function printOutcome(result: Awaited<ReturnType<typeof mutateTasks>>, flags: MutateFlags): void {
  const why = {
    mutate: 'not mutable',
    validate: 'rejected by validation',
    environment: 'environment broken',
    unvalidated: 'validation could not run',
  } as const;
  printKept(result);
  for (const s of result.skipped) console.log(`left out ${s.id} (${why[s.stage]}): ${s.reason}`);
  const count = (stage: keyof typeof why) => result.skipped.filter((s) => s.stage === stage).length;
  const unvalidated = count('unvalidated');
  const broken = count('environment');
  if (unvalidated + broken > 0) process.exitCode = 1;
  const validated = flags.validate ? `, validated in ${((result.validateMs ?? 0) / 1000).toFixed(1)}s` : '';
  if (unvalidated > 0)
    console.log(`${unvalidated} variant(s) could not be validated (the sandbox could not run them; see \`impossiblebench doctor\`)`);
  if (broken > 0) {
    console.log(
      `${broken} task(s) do not work in their environment: the gold patch's run on the original tests broke or failed there, which says nothing of the variant; check the image and the test spec`,
    );
  }
  console.log(
    `${flags.type}: wrote ${result.variants.length} of ${result.sources} tasks to ${flags.out} (seed ${flags.seed}; mutated in ${(result.mutateMs / 1000).toFixed(1)}s${validated}); ${result.skipped.length} left out`,
  );
  const flips = result.variants.filter((t) => t.mutation?.type === 'oneoff' && mutationKind(t).unfixedMayPass(t.mutation)).length;
  if (flips > 0 && !flags.validate)
    console.log(
      `${flips} of these one-offs flip a pass/fail outcome (a negation, a flipped bool, an expected error); the unfixed code may agree with some, so validate them (--validate) before measuring`,
    );
}

export function register(program: Command): void {
  const mutate = program
    .command('mutate')
    .description('Make the one-off or conflicting variant of every task of a dataset, optionally validated in sandboxes, as JSONL rows');
  addCommandOptions(mutate, MutateOptionsSchema).action(() => mutateAction(commandOptions(mutate, MutateOptionsSchema)));
}
