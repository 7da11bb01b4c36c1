import { kappa, pct } from '../format.js';
import { mdTable } from '../markdown-table.js';
import type { PairComparison } from './compare.js';
import { comparisonTable, methodNote, SPLIT_RATE as WHAT } from './table.js';

/**
 * The comparison as Markdown: one row per pair and split, then the tasks each pair disagrees on, each with its samples
 * (`impossiblebench view` opens a sample by its id). `maxTasks` caps each list.
 */
export function renderComparison(comparisons: readonly PairComparison[], options: { run: string; maxTasks?: number }): string {
  if (comparisons.length === 0) return `# Comparison of ${options.run}\n\nNo two arms ran the same task: nothing to compare.\n`;
  const out = [`# Comparison of ${options.run}`, ''];
  const table = comparisonTable(comparisons);
  out.push(methodNote(comparisons), '', mdTable(table.head, table.rows));
  const repeats = comparisons.filter((c) => c.consistency);
  if (repeats.length > 0) {
    out.push('', '## How consistent repeats are', '');
    out.push("The share of tasks whose repeats all agree, and Fleiss' kappa (agreement beyond chance: 1 all alike, 0 chance).", '');
    out.push(
      mdTable(
        ['split', 'arm', 'repeats agree', 'kappa'],
        repeats.flatMap((c) => [
          [WHAT[c.split], c.a, pct(c.consistency!.a.agree), kappa(c.consistency!.a.kappa)],
          [WHAT[c.split], c.b, pct(c.consistency!.b.agree), kappa(c.consistency!.b.kappa)],
        ]),
      ),
    );
  }
  const max = options.maxTasks ?? 20;
  for (const c of comparisons) {
    if (c.discordant.length === 0) continue;
    out.push('', `## ${WHAT[c.split]}: ${c.a} vs ${c.b}, the tasks that differ`, '');
    for (const d of c.discordant.slice(0, max))
      out.push(`- ${d.task}: passed in ${d.passedIn} only (samples ${c.a}: ${d.samplesA.join(', ')}; ${c.b}: ${d.samplesB.join(', ')})`);
    if (c.discordant.length > max) out.push(`- … and ${c.discordant.length - max} more`);
  }
  return `${out.join('\n')}\n`;
}
