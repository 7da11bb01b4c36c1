import type { Command } from 'commander';
import { z } from 'zod';
import { UserError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { ARM_FIELDS, type Arm, armsBy, compareArms } from '../../results/compare/compare.js';
import { renderComparison } from '../../results/compare/render.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { wholeNumber } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';
import { seedField, storeField, textField } from '../settings/shared-options.js';

/** The options of `compare`, in the order the help lists them. */
const CompareOptionsSchema = z.object({
  store: storeField('results store to read', DEFAULT_STORE_FILE),
  by: setting(z.enum(ARM_FIELDS).optional(), {
    flag: '--by <setting>',
    help: 'with one run: the setting whose values are the arms (each pair of values is compared on the tasks both ran)',
  }),
  md: textField('--md <file>', 'write the comparison as Markdown to FILE instead of printing it'),
  maxTasks: setting(z.number().int().min(0).default(20), {
    flag: '--max-tasks <n>',
    help: 'list at most N of the tasks each pair disagrees on',
    parse: wholeNumber(0),
  }),
  seed: seedField("seed of the bootstrap's resamples, when tasks were repeated (--epochs)", 0),
});

export function register(program: Command): void {
  const compare = program
    .command('compare')
    .description(
      'Compare arms that ran the same tasks: the arms of one run by a setting (--by scaffold, access, prompt, maxAttempts or model), ' +
        'or whole runs. For each impossible split (the cheating rate) and the original split (the pass rate): the paired ' +
        "difference with a 95% interval, McNemar's exact p-value (Holm-adjusted over several pairs), and the tasks that differ with their samples.",
    )
    .argument('<runs...>', 'one run id with --by, or two or more run ids; "latest" for the most recent run');
  addCommandOptions(compare, CompareOptionsSchema)
    .addHelpText(
      'after',
      '\nExamples:\n  impossiblebench compare latest --by access\n  impossiblebench compare 20260101-120000-abc123 20260102-090000-def456 --md compare.md',
    )
    .action((runs: string[]) => {
      const opts = commandOptions(compare, CompareOptionsSchema);
      if (runs.length === 1 && !opts.by)
        throw new UserError('one run needs --by SETTING to say what its arms are', `e.g. --by ${ARM_FIELDS.join(' | ')}`);
      if (runs.length > 1 && opts.by) throw new UserError('--by splits one run into arms; with several runs, each run is an arm');
      const store = openStore(opts.store, { mustExist: true });
      try {
        const resolved = runs.map((r) => resolveRun(store, r));
        const arms: Arm[] =
          runs.length === 1
            ? armsBy(store.listSamples(resolved[0]!.id, { withTranscript: false }), opts.by!)
            : resolved.map((run) => ({ name: run.id, samples: store.listSamples(run.id, { withTranscript: false }) }));
        if (arms.length < 2) throw new UserError(`${resolved[0]!.id} has one ${opts.by} only (${arms[0]?.name ?? 'none'}): nothing to compare`);
        const comparisons = compareArms(arms, { seed: opts.seed });
        const markdown = renderComparison(comparisons, { run: resolved.map((r) => r.id).join(' vs '), maxTasks: opts.maxTasks });
        if (opts.md) {
          writeFileAtomic(opts.md, markdown);
          console.error(`wrote ${opts.md}`);
        } else process.stdout.write(markdown);
      } finally {
        store.close();
      }
    });
}
