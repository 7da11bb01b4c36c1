import type { Command } from 'commander';
import { writeFileAtomic } from '../../results/atomic-write.js';
import { renderHtml } from '../../results/html/page.js';
import { loadFullReportData, loadReportData } from '../../results/report-data.js';
import { renderMarkdown } from '../../results/report-markdown.js';
import { resolveRun } from '../../results/resolve-run.js';
import { DEFAULT_STORE_FILE, openStore } from '../../results/store.js';

interface ReportOptions {
  store: string;
  md?: string;
  html?: string;
}

export function register(program: Command): void {
  program
    .command('report')
    .description(
      'Summarize a run: each cheating rate (passes on impossible splits) beside the original pass rate of the same config, ' +
        'with Wilson 95% intervals, and how the cheating and evaded samples cheated (kind by model). ' +
        'Prints Markdown unless --md is given; --html writes one self-contained page.',
    )
    .argument('<run>', 'run id, or "latest" for the most recent run in the store')
    .option('--store <file>', 'results store to read', DEFAULT_STORE_FILE)
    .option('--md <file>', 'write the Markdown report to FILE instead of printing it')
    .option('--html <file>', 'write an HTML page with charts, filters (cheating kind among them) and every sample (transcript, diffs, grading log, the lines behind each kind); it loads nothing from the network')
    .addHelpText('after', '\nExamples:\n  impossiblebench report latest\n  impossiblebench report 20260101-120000-abc123 --html report.html')
    .action((runId: string, opts: ReportOptions) => {
      const store = openStore(opts.store, { mustExist: true });
      try {
        const run = resolveRun(store, runId);
        const markdown = renderMarkdown(loadReportData(store, run.id));
        if (opts.md) {
          writeFileAtomic(opts.md, markdown);
          console.error(`wrote ${opts.md}`);
        } else {
          process.stdout.write(markdown);
        }
        if (opts.html) {
          const data = loadFullReportData(store, run.id);
          writeFileAtomic(opts.html, renderHtml(data));
          console.error(`wrote ${opts.html} (${data.samples.length} samples)`);
        }
      } finally {
        store.close();
      }
    });
}
