import { relative } from 'node:path';
import type { LaunchResult } from '../orchestration/launch.js';
import { imagesPullCommand } from '../orchestration/missing-images.js';
import { formatCost, formatDuration, Tally } from './progress.js';
import { shellArg } from './shell-arg.js';

/** A path as the user would type it from here: relative when inside the working directory. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** What the run spent against its budget (all sittings), and why it stopped when it did. */
function budgetLine(budget: NonNullable<LaunchResult['summary']['budget']>, left: number): string {
  const spent = `budget: $${budget.spentUsd.toFixed(4)} spent of $${budget.limitUsd}`;
  if (budget.stoppedBy === 'budget') return `${spent}; stopped before passing it with ${left} sample${left === 1 ? '' : 's'} left`;
  if (budget.stoppedBy === 'unknown_cost') {
    return `${spent}; stopped with ${left} sample${left === 1 ? '' : 's'} left: a sample's cost is unknown (give its model's price with --prices)`;
  }
  return spent;
}

/** What the user sees when a run ends: outcome, where it is stored, and what to do next. */
export function runEndLines(result: LaunchResult, table: string | undefined = result.table, options: { reportHint?: boolean } = {}): string[] {
  const s = result.summary;
  const tally = new Tally(s.total, s.total - s.unfinished);
  tally.costUsd = s.costUsd;
  tally.unknownCost = s.unknownCost;
  const store = shellArg(displayPath(result.storePath));
  const lines: string[] = [];
  if (table) lines.push('', table.trimEnd(), '');
  lines.push(
    `run ${s.runId} ${s.status}: ${s.total - s.unfinished}/${s.total} samples ` +
      `(passed ${s.counts.passed}, failed ${s.counts.failed}, evaded ${s.counts.evaded}, error ${s.counts.error}), ` +
      `${s.ranHere} run now in ${formatDuration(s.wallMs / 1000)}, cost ${formatCost(tally)}`,
  );
  lines.push(`store: ${displayPath(result.storePath)}   log: ${displayPath(result.logPath)}`);
  if (s.budget) lines.push(budgetLine(s.budget, s.unfinished));
  const left = result.missingImages.reduce((n, m) => n + m.taskIds.length, 0);
  if (left > 0) {
    lines.push(
      `${left} task${left === 1 ? ' was' : 's were'} left out: ${result.missingImages.length} image${result.missingImages.length === 1 ? ' is' : 's are'} missing; ` +
        `get them with \`${imagesPullCommand(result.experiment)}\`, then resume with: impossiblebench run --store ${store} --run-id ${shellArg(s.runId)}`,
    );
  }
  const broken = result.environmentBroken;
  if (broken.length > 0) {
    lines.push(
      `${broken.length} task${broken.length === 1 ? ' was' : 's were'} left out as environment-broken (the gold patch does not resolve ${broken.length === 1 ? 'it' : 'them'} here): ` +
        `${broken
          .slice(0, 3)
          .map((r) => r.taskId)
          .join(', ')}${broken.length > 3 ? ', …' : ''}; the report says why`,
    );
  }
  if (s.unfinished > 0) {
    const larger = s.budget?.stoppedBy ? ' --max-run-cost USD (a larger budget)' : '';
    lines.push(
      `${s.unfinished} sample${s.unfinished === 1 ? '' : 's'} unfinished; resume with: impossiblebench run --store ${store} --run-id ${shellArg(s.runId)}${larger}`,
    );
  }
  if (options.reportHint !== false) lines.push(`report: impossiblebench report ${shellArg(s.runId)} --store ${store} --html report.html`);
  return lines;
}

export function printRunEnd(result: LaunchResult, options: { reportHint?: boolean } = {}): void {
  process.stdout.write(`${runEndLines(result, result.table, options).join('\n')}\n`);
}
