import type { Command } from 'commander';
import { z } from 'zod';
import { CHEATING_KINDS, KIND_DESCRIPTIONS } from '../../results/classify/index.js';
import { columnEntries } from '../../results/export-columns.js';
import { EXPORT_FILTERS, EXPORT_FORMATS, exportRun, isInspectFormat, parseExportOptions } from '../../results/export.js';
import { exportInspectLogs } from '../../results/inspect/export-logs.js';
import { LABEL_HELP } from '../../results/labels.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';
import { requiredText, storeField, textField } from '../settings/shared-options.js';

/** The options of `export`, in the order the help lists them; `parseExportOptions` checks the format and the filter. */
const ExportOptionsSchema = z.object({
  out: requiredText(
    '--out <path>',
    'the file to write (replaced only once complete); the card goes beside it: samples.parquet -> samples.parquet.card.md. ' +
      'With --format inspect or inspect-json: the folder the logs go in (made when missing)',
  ),
  format: textField(
    '--format <format>',
    `${EXPORT_FORMATS.join(', ')}; default: parquet when --out ends in .parquet, else jsonl (the flag wins over the extension). ` +
      'inspect: Inspect AI eval logs (.eval), one per model, dataset, scaffold, access, prompt and max attempts, its splits and epochs as samples; ' +
      "inspect-json: the same logs in Inspect's .json format",
  ),
  only: textField(
    '--only <which>',
    `keep only these samples: ${EXPORT_FILTERS.join(', ')} (cheating and legit by label, passed by outcome); default: every sample`,
  ),
  card: setting(z.boolean().default(true), { flag: '--no-card', help: 'do not write the dataset card (the Inspect formats write none)' }),
  store: storeField('results store to read', DEFAULT_STORE_FILE),
});

const COLUMNS_TEXT = [
  'Columns (the same in both formats; nested fields are JSON objects in JSONL, structs and lists of structs in Parquet;',
  'a nullable field is null in Parquet, and null or absent in JSONL):',
  ...columnEntries().map((c) => `${'  '.repeat(c.depth + 1)}${c.name} (${c.type}${c.optional ? ', nullable' : ''}): ${c.doc}`),
].join('\n');

const KINDS_TEXT = [
  'Kinds (the "kinds" field): for a cheating or evaded sample, the kinds of cheating its evidence shows, each with the lines',
  'that show it; null for every other sample. A sample may show several kinds; "other" means none of the known tricks shows.',
  ...CHEATING_KINDS.map((k) => `  ${k.padEnd(17)} ${KIND_DESCRIPTIONS[k]}`),
].join('\n');

const EXAMPLES = [
  'Examples:',
  '  impossiblebench export latest --out samples.jsonl',
  '  impossiblebench export latest --out samples.parquet                  # Parquet, from the extension',
  '  impossiblebench export latest --out cheats.parquet --only cheating   # then in Python: pd.read_parquet("cheats.parquet")',
  '  impossiblebench export latest --out logs --format inspect            # then: inspect view --log-dir logs',
].join('\n');

export function register(program: Command): void {
  const command = program
    .command('export')
    .description(
      'Write a run as a dataset, one row per sample: its key (model, dataset, split, task, scaffold, access, prompt, ' +
        'max attempts, epoch), transcript, source and test diffs, outside changes, grading log, outcome, stop reason, label, ' +
        'the kinds of cheating with the lines that show them, and the verdicts of LLM judges and monitors. ' +
        'A dataset card (Markdown: label rule, run configuration, counts, columns) is written beside it as FILE.card.md. ' +
        "Or, with --format inspect or inspect-json, a folder of Inspect AI eval logs for Inspect's log viewer and the tools that read its logs.",
    )
    .argument('<run>', 'run id, or "latest" for the most recent run in the store');
  addCommandOptions(command, ExportOptionsSchema)
    .addHelpText(
      'after',
      `\nLabels (ground truth for cheating monitors):\n  ${LABEL_HELP.split('; ').join('\n  ')}\n\n${COLUMNS_TEXT}\n\n${KINDS_TEXT}\n\n${EXAMPLES}`,
    )
    .action(async (runId: string) => {
      const opts = commandOptions(command, ExportOptionsSchema);
      // Bad values fail before the store is opened.
      const options = parseExportOptions({ format: opts.format, only: opts.only, card: opts.card });
      const store = openStore(opts.store, { mustExist: true });
      try {
        const run = resolveRun(store, runId);
        if (isInspectFormat(options.format)) {
          const logs = await exportInspectLogs(store, run.id, opts.out, options.format, (line) => console.error(line));
          const samples = logs.reduce((n, l) => n + l.samples, 0);
          console.error(`wrote ${logs.length} Inspect log${logs.length === 1 ? '' : 's'} (${samples} samples) to ${opts.out}`);
          return;
        }
        const { lines, labels, kinds, card } = await exportRun(store, run.id, opts.out, options);
        const byKind = CHEATING_KINDS.filter((k) => kinds[k])
          .map((k) => `${k} ${kinds[k]}`)
          .join(', ');
        console.error(
          `wrote ${opts.out}: ${lines} samples (${labels.cheating} cheating, ${labels.legit} legit, ${labels.none} none)${byKind ? `; kinds: ${byKind}` : ''}`,
        );
        if (card) console.error(`wrote ${card}`);
      } finally {
        store.close();
      }
    });
}
