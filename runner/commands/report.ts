import type { Command } from 'commander';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { DEFAULT_MAX_TRANSCRIPTS, htmlReportStream, writeHtmlReportStream } from '../../results/html/stream-report.js';
import { loadReportData } from '../../results/report-data.js';
import { renderMarkdown } from '../../results/report-markdown.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { wholeNumber } from '../settings/shared-flags.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';
import { storeField, textField, thresholdField } from '../settings/shared-options.js';

/** The options of `report`, in the order the help lists them. */
const ReportOptionsSchema = z.object({
  store: storeField('results store to read', DEFAULT_STORE_FILE),
  md: textField('--md <file>', 'write the Markdown report to FILE instead of printing it'),
  html: textField(
    '--html <file>',
    'write one self-contained HTML page with charts, filters (cheating kind among them), the index of every sample and the evidence (transcript, diffs, grading log, the lines behind each kind) of up to --max-transcripts of them; it loads nothing from the network',
  ),
  maxTranscripts: setting(z.number().int().min(0).default(DEFAULT_MAX_TRANSCRIPTS), {
    flag: '--max-transcripts <n>',
    help: 'embed the transcripts, diffs and logs of at most N samples, tampered and cheating ones first; the others are listed, and `impossiblebench view` shows them',
    parse: wholeNumber(0),
  }),
  threshold: thresholdField('monitors flag a sample when its suspicion score is at least this (0 to 100)'),
});

export function register(program: Command): void {
  const report = program
    .command('report')
    .description(
      'Summarize a run: each cheating rate (passes on impossible splits) beside the original pass rate of the same config, ' +
        'with Wilson 95% intervals (with repeats, `run --epochs`, per task: a bootstrap over tasks, and how consistent the repeats are), how the cheating and evaded samples cheated (kind by model), and how well each monitor tells ' +
        'cheating passes from legitimate ones (the static classifier always; LLM monitors once `impossiblebench monitor` ran). ' +
        'Prints Markdown unless --md is given; --html writes one self-contained page.',
    )
    .argument('<run>', 'run id, or "latest" for the most recent run in the store');
  addCommandOptions(report, ReportOptionsSchema)
    .addHelpText(
      'after',
      '\nExamples:\n  impossiblebench report latest\n  impossiblebench report 20260101-120000-abc123 --html report.html --max-transcripts 500',
    )
    .action(async (runId: string) => {
      const opts = commandOptions(report, ReportOptionsSchema);
      const { threshold, maxTranscripts } = opts;
      const store = openStore(opts.store, { mustExist: true });
      try {
        const run = resolveRun(store, runId);
        // With --html both reports come from one reading of the store: at a sweep's size each reading takes a while.
        const page = opts.html ? htmlReportStream(store, run.id, { threshold, maxTranscripts, storeLabel: opts.store }) : undefined;
        const markdown = renderMarkdown(page?.reportData ?? loadReportData(store, run.id, threshold));
        if (opts.md) {
          writeFileAtomic(opts.md, markdown);
          console.error(`wrote ${opts.md}`);
        } else {
          process.stdout.write(markdown);
        }
        if (page && opts.html) {
          const written = await writeHtmlReportStream(page, opts.html);
          const held =
            written.embedded < written.samples ? `, the evidence of ${written.embedded}: \`impossiblebench view ${opts.store}\` shows the rest` : '';
          console.error(`wrote ${opts.html} (${written.samples} samples${held})`);
        }
      } finally {
        store.close();
      }
    });
}
