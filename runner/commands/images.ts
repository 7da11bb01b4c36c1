import type { Command } from 'commander';
import { z } from 'zod';
import { sandboxBackend } from '../../docker/backends.js';
import { PYTHON_IMAGE, SANDBOX_IMAGES } from '../../docker/image-names.js';
import { mergeSettings, parseExperiment } from '../settings/config.js';
import { baseSettings, presetNames } from '../settings/presets.js';
import { downloadSize, formatBytes, neededImages, pullMissing, type ImageSelection } from '../orchestration/images-pull.js';
import { handleInterrupts } from '../orchestration/interrupt.js';
import { dockerHosts } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions } from '../settings/setting-flags.js';
import {
  concurrencyField,
  IMAGE_NAMING_OPTIONS,
  limitField,
  repeatableText,
  SANDBOX_BACKEND_OPTIONS,
  seedField,
  switchField,
  textField,
} from '../settings/shared-options.js';
import { Steps } from '../../docker/build/progress.js';
import { readExcludeFile } from '../settings/task-choice.js';
import { UserError } from '../../core/errors.js';

/** The options of `images pull`, in the order the help lists them. */
export const PullOptionsSchema = z.object({
  dataset: repeatableText('--dataset <name>', 'dataset, repeatable: hf:OWNER/NAME, a .json/.jsonl/.parquet file, builtin:swe, builtin:lcb'),
  split: repeatableText('--split <split>', 'original | oneoff | conflicting, repeatable (default: all three)'),
  limit: limitField('the first n tasks per dataset, as `run --limit` picks them'),
  shuffle: switchField('--shuffle', 'shuffle the tasks with --seed before --limit, as `run --shuffle` does'),
  seed: seedField('seed of the shuffle (default 0)'),
  task: repeatableText('--task <id>', 'only this task id, in every dataset, as `run --task` picks it; repeatable'),
  excludeTask: repeatableText('--exclude-task <id>', 'leave this task id out, as `run --exclude-task` does; repeatable'),
  excludeFile: textField('--exclude-file <file>', 'leave out the task ids in FILE (one a line, `#` comments), as `run --exclude-file` does'),
  config: textField('--config <file>', 'take datasets, splits, limit, shuffle, seed, task ids and images from an experiment file; flags override it'),
  preset: textField(
    '--preset <name>',
    `take them from a configuration shipped with the package, as \`run --preset\` does: ${presetNames().join(', ')}`,
  ),
  ...IMAGE_NAMING_OPTIONS,
  ...SANDBOX_BACKEND_OPTIONS,
  concurrency: concurrencyField('images pulled at once', 2),
  dryRun: switchField('--dry-run', 'only list what is missing and how much it is'),
  plain: switchField('--plain', 'one line per image even on a terminal'),
});
export type PullFlags = z.infer<typeof PullOptionsSchema>;

/** The datasets, task selection and image naming to pull for: the preset's and config file's, with the flags over them. */
export async function pullSelection(flags: PullFlags): Promise<ImageSelection> {
  const base = await baseSettings({ preset: flags.preset, config: flags.config });
  const file = base?.settings ?? {};
  const given = {
    datasets: flags.dataset,
    splits: flags.split,
    limit: flags.limit,
    shuffle: flags.shuffle,
    seed: flags.seed,
    tasks: flags.task,
    excludeTasks: flags.excludeTask,
    excludeFile: flags.excludeFile,
    images: { namespace: flags.imageNamespace, tag: flags.imageTag, arch: flags.imageArch },
  };
  const settings = mergeSettings({ models: ['scripted/honest'], ...file }, given);
  if (settings.datasets === undefined)
    throw new UserError('no dataset given', 'pass --dataset (e.g. --dataset hf:fjzzq2002/impossible_swebench) or --config FILE');
  const flagOf: Record<string, string> = {
    datasets: '--dataset',
    splits: '--split',
    tasks: '--task',
    excludeTasks: '--exclude-task',
    excludeFile: '--exclude-file',
    images: '--image-namespace/--image-tag/--image-arch',
  };
  const fromFlag = (field: string) =>
    (given as Record<string, unknown>)[field] !== undefined && !(field === 'images' && Object.values(given.images).every((v) => v === undefined));
  return readExcludeFile(parseExperiment(settings, (field) => (fromFlag(field) || !base ? (flagOf[field] ?? `--${field}`) : base.path)));
}

/** The options of `images build`, in the order the help lists them. */
const BuildOptionsSchema = z.object({
  offline: switchField('--offline', 'never contact a registry: use the image if present, else build it from Debian packages (needs root)'),
  rebuild: switchField('--rebuild', 'build a new image even if a working one is present'),
  mirror: textField('--mirror <url>', 'Debian archive for the offline build (default: the one apt on this machine uses)'),
  quiet: switchField('-q, --quiet', 'print only the result'),
  ...SANDBOX_BACKEND_OPTIONS,
});
type BuildFlags = z.infer<typeof BuildOptionsSchema>;

const ListOptionsSchema = z.object(SANDBOX_BACKEND_OPTIONS);

async function listAction(flags: z.infer<typeof ListOptionsSchema>): Promise<void> {
  const backend = sandboxBackend(flags.sandbox, dockerHosts(flags.dockerHost));
  let missing = 0;
  for (const spec of SANDBOX_IMAGES) {
    const s = await backend.images.status(spec.name, spec.recipe);
    if (s.state !== 'present') missing++;
    const size = s.sizeBytes ? `, ${Math.round(s.sizeBytes / 1e6)} MB` : '';
    const recipe = s.recipe ? `, recipe ${s.recipe}` : s.state === 'present' ? ', made outside this tool' : '';
    console.log(`${spec.name}  ${s.state}${recipe}${size}  (${spec.purpose})`);
  }
  if (missing > 0) console.log('fix: impossiblebench images build');
}

async function pullAction(flags: PullFlags): Promise<void> {
  const selection = await pullSelection(flags);
  const interrupts = handleInterrupts({ onFirst: () => process.stderr.write('\nstopping the pulls; images already pulled are kept\n') });
  try {
    const backend = sandboxBackend(flags.sandbox, dockerHosts(flags.dockerHost));
    const needs = await neededImages(selection, (line) => process.stderr.write(`${line}\n`), backend);
    const missing = needs.filter((n) => !n.present).map((n) => n.image);
    console.log(`${needs.length} image${needs.length === 1 ? '' : 's'} needed: ${needs.length - missing.length} present, ${missing.length} to get`);
    if (missing.length === 0) return;
    const fromRegistry = missing.filter((i) => i !== PYTHON_IMAGE);
    const size = await downloadSize(fromRegistry, selection.images.arch, interrupts.signal);
    if (fromRegistry.length > 0) {
      const unknown = size.unknown.length
        ? `; size unknown for ${size.unknown.length} (the registry did not say: ${size.unknown.slice(0, 2).join(', ')}${size.unknown.length > 2 ? ', …' : ''})`
        : '';
      console.log(
        `download: ${formatBytes(size.bytes)} compressed for ${fromRegistry.length - size.unknown.length} image(s), layers they share counted once${unknown}; unpacked, images take more on disk`,
      );
    }
    const free = await backend.images.freeSpace();
    if (free) {
      console.log(`free where the engine keeps images (${free.path}): ${formatBytes(free.bytes)}`);
      if (size.bytes > free.bytes) console.log('warning: the download alone is larger than the free space');
    }
    if (flags.dryRun) return;
    const outcome = await pullMissing(missing, {
      concurrency: flags.concurrency,
      out: process.stderr,
      plain: flags.plain === true,
      ...(size.bytes > 0 && size.unknown.length === 0 ? { totalBytes: size.bytes } : {}),
      signal: interrupts.signal,
      backend,
    });
    console.log(
      `got ${outcome.pulled.length} of ${missing.length} image(s), ${formatBytes(outcome.diskBytes)} on disk${outcome.failed.length ? `; ${outcome.failed.length} failed` : ''}`,
    );
    for (const f of outcome.failed) console.log(`  ${f.image}: ${f.error}`);
    if (outcome.failed.length > 0) process.exitCode = 1;
  } catch (err) {
    if (interrupts.signal.aborted) {
      process.exitCode = 130;
      return;
    }
    throw err;
  } finally {
    interrupts.dispose();
  }
}

async function buildAction(flags: BuildFlags): Promise<void> {
  const backend = sandboxBackend(flags.sandbox, dockerHosts(flags.dockerHost));
  if (flags.mirror !== undefined && !/^https?:\/\/\S+$/.test(flags.mirror)) {
    throw new UserError(`--mirror must be an http(s) URL, got ${JSON.stringify(flags.mirror)}`);
  }
  const controller = new AbortController();
  const onInterrupt = () => controller.abort(new UserError('images build interrupted; no partial image was kept'));
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  const steps = new Steps(process.stderr, flags.quiet);
  try {
    const outcome = await backend.images.build({
      offline: flags.offline,
      rebuild: flags.rebuild,
      mirror: flags.mirror,
      signal: controller.signal,
      steps,
    });
    const verb = { present: 'present', pulled: 'pulled and extended', built: 'built from Debian packages' }[outcome.how];
    console.log(
      `${outcome.image}: ${verb}, python ${outcome.check.python}, pytest ${outcome.check.pytest}, git ${outcome.check.git} (${steps.elapsed()})`,
    );
  } catch (err) {
    if (controller.signal.aborted) {
      process.exitCode = 130;
      throw controller.signal.reason;
    }
    throw err;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}

export function register(program: Command): void {
  const images = program.command('images').description('provision and list the sandbox images');

  const build = images
    .command('build')
    .description('make the sandbox image: use it if present, else pull from a registry, else build it from Debian packages');
  addCommandOptions(build, BuildOptionsSchema).action(() => buildAction(commandOptions(build, BuildOptionsSchema)));

  const pull = images
    .command('pull')
    .description(
      'get every image the tasks of a dataset need: each SWE-bench row runs in its published instance image ' +
        '(swebench/sweb.eval.x86_64.ID:latest), pulled from its registry; tasks of the built-in suites use the project image ' +
        '(made as `images build` makes it). Prints the download size first (layers shared between images counted once) and ' +
        'the free space where the engine keeps images, then pulls what is missing with progress. With several --docker-host ' +
        'engines an image is missing only when none holds it, and each is pulled onto one of them, spread by capacity and by ' +
        'what each holds: samples run on an engine that holds their image.',
    );
  addCommandOptions(pull, PullOptionsSchema).action(() => pullAction(commandOptions(pull, PullOptionsSchema)));

  const list = images.command('list').description('show which sandbox images are present');
  addCommandOptions(list, ListOptionsSchema).action(() => listAction(commandOptions(list, ListOptionsSchema)));
}
