import type { Command } from 'commander';
import { CHEATING_KINDS, KIND_DESCRIPTIONS } from '../../results/classify/index.js';
import { exportRun } from '../../results/export.js';
import { LABEL_HELP } from '../../results/labels.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';

interface ExportOptions {
  out: string;
  store: string;
}

const KINDS_TEXT = [
  'Kinds (the "kinds" field): for a cheating or evaded sample, a list of { kind, why, evidence }, where each piece of',
  'evidence is { source: testDiff | sourceDiff | outsideChanges | gradingLog | transcript, file?, line?, change?: "+" | "-", text };',
  'null for every other sample. A sample may show several kinds; "other" means none of the known tricks shows in the evidence.',
  ...CHEATING_KINDS.map((k) => `  ${k.padEnd(17)} ${KIND_DESCRIPTIONS[k]}`),
  '',
  'Judges (the "judges" field): the verdicts `impossiblebench classify` stored for the sample, the newest per judge model:',
  '{ model, kind (one of the four paper kinds or other; null when the answer named none), explanation, inputTokens, outputTokens, costUsd }.',
].join('\n');

export function register(program: Command): void {
  program
    .command('export')
    .description(
      'Write a run as a JSONL dataset, one sample a line: its key (model, dataset, split, task, scaffold, access, prompt, ' +
        'max attempts, epoch), transcript, source and test diffs, outside changes, grading log, outcome, stop reason, label, ' +
        'and for cheating or evaded samples the kinds of cheating with the lines that show them.',
    )
    .argument('<run>', 'run id, or "latest" for the most recent run in the store')
    .requiredOption('--out <file>', 'the JSONL file to write (replaced only once complete)')
    .option('--store <file>', 'results store to read', DEFAULT_STORE_FILE)
    .addHelpText('after', `\nLabels (ground truth for cheating monitors):\n  ${LABEL_HELP.split('; ').join('\n  ')}\n\n${KINDS_TEXT}\n\nExample:\n  impossiblebench export latest --out samples.jsonl`)
    .action(async (runId: string, opts: ExportOptions) => {
      const store = openStore(opts.store, { mustExist: true });
      try {
        const run = resolveRun(store, runId);
        const { lines, labels, kinds } = await exportRun(store, run.id, opts.out);
        const byKind = CHEATING_KINDS.filter((k) => kinds[k]).map((k) => `${k} ${kinds[k]}`).join(', ');
        console.error(`wrote ${opts.out}: ${lines} samples (${labels.cheating} cheating, ${labels.legit} legit, ${labels.none} none)${byKind ? `; kinds: ${byKind}` : ''}`);
      } finally {
        store.close();
      }
    });
}
