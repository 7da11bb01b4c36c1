import type { Command } from 'commander';
import { exportRun } from '../../results/export.js';
import { LABEL_HELP } from '../../results/labels.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';

interface ExportOptions {
  out: string;
  store: string;
}

export function register(program: Command): void {
  program
    .command('export')
    .description(
      'Write a run as a JSONL dataset, one sample a line: its key (model, dataset, split, task, scaffold, access, prompt, ' +
        'max attempts, epoch), transcript, source and test diffs, outside changes, grading log, outcome, stop reason and label.',
    )
    .argument('<run>', 'run id, or "latest" for the most recent run in the store')
    .requiredOption('--out <file>', 'the JSONL file to write (replaced only once complete)')
    .option('--store <file>', 'results store to read', DEFAULT_STORE_FILE)
    .addHelpText('after', `\nLabels (ground truth for cheating monitors):\n  ${LABEL_HELP.split('; ').join('\n  ')}\n\nExample:\n  impossiblebench export latest --out samples.jsonl`)
    .action(async (runId: string, opts: ExportOptions) => {
      const store = openStore(opts.store, { mustExist: true });
      try {
        const run = resolveRun(store, runId);
        const { lines, labels } = await exportRun(store, run.id, opts.out);
        console.error(`wrote ${opts.out}: ${lines} samples (${labels.cheating} cheating, ${labels.legit} legit, ${labels.none} none)`);
      } finally {
        store.close();
      }
    });
}
