import { kappa, pct } from '../format.js';
import { mdTable } from '../markdown-table.js';
import type { PairComparison } from './compare.js';

const WHAT = { oneoff: 'cheating rate, one-off', conflicting: 'cheating rate, conflicting', original: 'pass rate, original' } as const;

/** `+45.0 pts [30.1, 58.2]`: a difference of rates in percentage points with its interval. */
function points(d: number, low: number, high: number): string {
  const f = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
  return `${f(d)} pts [${f(low)}, ${f(high)}]`;
}

function pValue(p: number | null): string {
  if (p === null) return '—';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

/**
 * The comparison as Markdown: one row per pair and split, then the tasks each pair disagrees on, each with its samples
 * (`impossiblebench view` opens a sample by its id). `maxTasks` caps each list.
 */
export function renderComparison(comparisons: readonly PairComparison[], options: { run: string; maxTasks?: number }): string {
  if (comparisons.length === 0) return `# Comparison of ${options.run}\n\nNo two arms ran the same task: nothing to compare.\n`;
  const out = [`# Comparison of ${options.run}`, ''];
  const repeated = comparisons.some((c) => c.intervalMethod !== 'tango');
  const adjusted = comparisons.some((c) => c.pAdjusted !== null);
  out.push(
    'Each task is a pair: its outcome in arm A and in arm B, on the tasks both arms graded (errors leave a task out). ' +
      "Difference = A − B in percentage points, with a 95% interval (Tango's paired score interval" +
      `${repeated ? '; with repeats, a percentile bootstrap over tasks, each task the mean of its repeats, and no McNemar test' : ''}); ` +
      `p is McNemar's exact test${adjusted ? ", and Holm's adjustment over every pair of the same split" : ''}.`,
    '',
  );
  out.push(
    mdTable(
      ['split', 'A', 'B', 'tasks', 'A rate', 'B rate', 'difference A − B', 'p', ...(adjusted ? ['p (Holm)'] : []), 'A only', 'B only'],
      comparisons.map((c) => [
        WHAT[c.split],
        c.a,
        c.b,
        c.leftOut ? `${c.tasks} (${c.leftOut} left out)` : c.tasks,
        pct(c.rateA),
        pct(c.rateB),
        points(c.difference, c.interval.low, c.interval.high),
        pValue(c.p),
        ...(adjusted ? [pValue(c.pAdjusted)] : []),
        c.discordant.filter((d) => d.passedIn === c.a).length,
        c.discordant.filter((d) => d.passedIn === c.b).length,
      ]),
    ),
  );
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
