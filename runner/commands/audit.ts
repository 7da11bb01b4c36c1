import type { Command } from 'commander';
import { z } from 'zod';
import { auditTasks, originCounts, type AuditRow } from '../../mutations/audit/audit.js';
import { progressLine } from '../../mutations/progress.js';
import { readDataset } from '../../tasks/load.js';
import { formatProblem } from '../../tasks/rows.js';
import { UserError } from '../../core/errors.js';
import { handleInterrupts } from '../orchestration/interrupt.js';
import { addCommandOptions, commandOptions, setting } from '../settings/setting-flags.js';
import { concurrencyField, HUB_CACHE_OPTIONS, requiredText, switchField, textField } from '../settings/shared-options.js';

/** The options of `audit`, in the order the help lists them. */
export const AuditOptionsSchema = z.object({
  dataset: requiredText('--dataset <dataset>', 'hf:OWNER/NAME, a .json/.jsonl/.parquet file, or a built-in suite'),
  split: textField('--split <split>', 'only this split or variant (oneoff or conflicting); default: every impossible row'),
  docker: setting(z.boolean().default(true), { flag: '--no-docker', help: 'structure only: do not run solutions or gold patches in Docker' }),
  json: switchField('--json', 'print one JSON object per row, then the summary'),
  concurrency: concurrencyField('sandboxes used side by side', 2),
  ...HUB_CACHE_OPTIONS,
});
type AuditFlags = z.infer<typeof AuditOptionsSchema>;

export function summarize(rows: readonly AuditRow[]): string {
  const problems = rows.filter((r) => r.verdict === 'problem').length;
  const errors = rows.filter((r) => r.verdict === 'error').length;
  const ran = rows.filter((r) => r.ran).length;
  const passed = rows.length - problems - errors;
  const unchecked = errors ? `, ${errors} not checked (the sandbox could not run them)` : '';
  const made = originCounts(rows);
  const recorded = made.patch + made['whole-file'] + made.model;
  // Only rows with a mutation record say how they were made.
  const how = recorded
    ? `; made by an edit of the test patch ${made.patch}, by an edit found in the whole test file ${made['whole-file']}, by a model ${made.model}`
    : '';
  return `audited ${rows.length} impossible row${rows.length === 1 ? '' : 's'}: ${passed} as advertised, ${problems} with problems${unchecked}; solutions run for ${ran}${how}`;
}

export function register(program: Command): void {
  const audit = program
    .command('audit')
    .description(
      'Check an impossible dataset made elsewhere: each variant parses, differs from the original exactly as advertised, and fails the solutions that pass the original',
    );
  addCommandOptions(audit, AuditOptionsSchema).action(async () => {
    const flags: AuditFlags = commandOptions(audit, AuditOptionsSchema);
    const report = await readDataset(flags.dataset, {
      ...(flags.split ? { split: flags.split } : {}),
      ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}),
      ...(flags.offline ? { offline: true } : {}),
      say: (line) => process.stderr.write(`${line}\n`),
    });
    for (const p of report.problems) console.log(`row problem: ${formatProblem(p)}`);
    const impossible = report.tasks.filter((t) => t.variant !== 'original');
    if (impossible.length === 0) {
      throw new UserError(`${flags.dataset}${flags.split ? ` (split ${flags.split})` : ''} has no impossible (oneoff or conflicting) rows to audit`);
    }
    const interrupts = handleInterrupts({ onFirst: () => process.stderr.write('\nstopping the audit\n') });
    const bar = progressLine('auditing', impossible.length);
    try {
      const rows = await auditTasks(impossible, {
        docker: flags.docker,
        concurrency: flags.concurrency,
        runId: `audit-${process.pid}`,
        signal: interrupts.signal,
        onProgress: (done) => bar.tick(done),
      });
      bar.end();
      for (const row of rows) {
        if (flags.json) console.log(JSON.stringify(row));
        else
          console.log(
            `${{ pass: 'PASS   ', problem: 'PROBLEM', error: 'ERROR  ' }[row.verdict]} ${row.id} [${row.variant}] ${row.findings.join('; ')}`,
          );
      }
      console.log(summarize(rows) + (report.problems.length ? `; ${report.problems.length} rows could not be read` : ''));
      if (rows.some((r) => r.verdict !== 'pass') || report.problems.length > 0) process.exitCode = 1;
    } finally {
      interrupts.dispose();
    }
  });
}
