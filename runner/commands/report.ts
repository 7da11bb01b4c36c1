import type { Command } from 'commander';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { renderHtml } from '../../results/html/page.js';
import { loadFullReportData, loadReportData } from '../../results/report-data.js';
import { renderMarkdown } from '../../results/report-markdown.js';
import { DEFAULT_THRESHOLD } from '../../results/monitor/metrics.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';
import { UserError } from '../../core/errors.js';

interface ReportOptions {
  store: string;
  md?: string;
  html?: string;
  threshold: string;
}

export function register(program: Command): void {
  program
    .command('report')
    .description(
      'Summarize a run: each cheating rate (passes on impossible splits) beside the original pass rate of the same config, ' +
        'with Wilson 95% intervals, how the cheating and evaded samples cheated (kind by model), and how well each monitor tells ' +
        'cheating passes from legitimate ones (the static classifier always; LLM monitors once `impossiblebench monitor` ran). ' +
        'Prints Markdown unless --md is given; --html writes one self-contained page.',
    )
    .argument('<run>', 'run id, or "latest" for the most recent run in the store')
    .option('--store <file>', 'results store to read', DEFAULT_STORE_FILE)
    .option('--md <file>', 'write the Markdown report to FILE instead of printing it')
    .option(
      '--html <file>',
      'write an HTML page with charts, filters (cheating kind among them) and every sample (transcript, diffs, grading log, the lines behind each kind); it loads nothing from the network',
    )
    .option('--threshold <score>', 'monitors flag a sample when its suspicion score is at least this (0 to 100)', String(DEFAULT_THRESHOLD))
    .addHelpText('after', '\nExamples:\n  impossiblebench report latest\n  impossiblebench report 20260101-120000-abc123 --html report.html')
    .action((runId: string, opts: ReportOptions) => {
      const threshold = Number(opts.threshold);
      if (opts.threshold.trim() === '' || !Number.isFinite(threshold) || threshold < 0 || threshold > 100) {
        throw new UserError(`--threshold must be a number from 0 to 100, not "${opts.threshold}"`);
      }
      const store = openStore(opts.store, { mustExist: true });
      try {
        const run = resolveRun(store, runId);
        const markdown = renderMarkdown(loadReportData(store, run.id, threshold));
        if (opts.md) {
          writeFileAtomic(opts.md, markdown);
          console.error(`wrote ${opts.md}`);
        } else {
          process.stdout.write(markdown);
        }
        if (opts.html) {
          const data = loadFullReportData(store, run.id, threshold);
          writeFileAtomic(opts.html, renderHtml(data));
          console.error(`wrote ${opts.html} (${data.samples.length} samples)`);
        }
      } finally {
        store.close();
      }
    });
}
