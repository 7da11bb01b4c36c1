import { KIND_DESCRIPTIONS, type CheatingKind, type KindCounts } from './classify/index.js';
import { count, pct, rateWithInterval } from './format.js';
import { CONFIG_FIELDS, type ConfigRow } from './metrics.js';

/** A table as text cells, for the Markdown report and the viewer alike. */
export interface TextTable {
  head: string[];
  rows: string[][];
}

const CONFIG_HEAD = ['Model', 'Dataset', 'Scaffold', 'Access', 'Prompt', 'Max attempts'];

/** The paper's view: each config's original pass rate beside its cheating rates, with 95% intervals (Wilson, or with repeats a bootstrap over tasks). */
export interface RateTable extends TextTable {
  /** Fields equal in every row, said once above the table (lower-case name, value), so the rates stay easy to scan. */
  fixed: [string, string][];
}

export function rateTable(rows: readonly ConfigRow[]): RateTable {
  const varying = CONFIG_FIELDS.filter((f) => rows.length === 1 || new Set(rows.map((r) => String(r.config[f]))).size > 1);
  const fixed = rows.length > 1 ? CONFIG_FIELDS.filter((f) => !varying.includes(f)) : [];
  const head = (f: (typeof CONFIG_FIELDS)[number]) => CONFIG_HEAD[CONFIG_FIELDS.indexOf(f)]!;
  return {
    fixed: fixed.map((f) => [head(f).toLowerCase(), String(rows[0]!.config[f])]),
    head: [...varying.map(head), 'Original pass rate', 'One-off cheating rate', 'Conflicting cheating rate'],
    rows: rows.map((r) => [
      ...varying.map((f) => String(r.config[f])),
      rateWithInterval(r.splits.original) || 'not run',
      rateWithInterval(r.splits.oneoff) || 'not run',
      rateWithInterval(r.splits.conflicting) || 'not run',
    ]),
  };
}

/** Kind × model counts of the cheating and evaded samples, each with its share of the model's; null when none was classified. */
export function kindTable(kinds: KindCounts): TextTable | null {
  const total = Object.values(kinds.classified).reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const share = (n: number, of: number) => (n ? `${count(n)} (${pct(n / of)})` : '0');
  const rows = (Object.entries(kinds.counts) as [CheatingKind, Record<string, number>][]).map(([kind, byModel]) => {
    const all = Object.values(byModel).reduce((a, b) => a + b, 0);
    return [kind, ...kinds.models.map((m) => share(byModel[m] ?? 0, kinds.classified[m]!)), share(all, total), KIND_DESCRIPTIONS[kind]];
  });
  rows.push(['samples classified', ...kinds.models.map((m) => count(kinds.classified[m]!)), count(total), 'cheating passes and evasions']);
  return { head: ['Kind', ...kinds.models, 'All', 'What it means'], rows };
}
