import { DATA, KIND_INFO, MON, SAMPLES, SPLIT_NAME, SPLITS, type Split } from './data.js';
import { append, byId, h, num } from './dom.js';
import { resetFilters, setFilters, type FilterName } from './state.js';

type Option = [value: string, label: string];

const OUTCOME_OPTIONS: Option[] = [
  ['cheating', 'cheating (passed on impossible)'],
  ['legit', 'passed on original'],
  ['passed', 'passed (any split)'],
  ['failed', 'failed'],
  ['evaded', 'evaded'],
  ['flagged', 'flagged'],
  ['context_limit', 'ended at the context window'],
  ['error', 'error'],
];

type KeyField = 'model' | 'dataset' | 'split' | 'scaffold' | 'access';

/** Every value a field takes in the samples or the configs, splits in their own order. */
function distinct(field: KeyField): string[] {
  const seen: Record<string, boolean> = {};
  for (const s of SAMPLES) seen[s.key[field]] = true;
  for (const r of DATA.rows) {
    if (field === 'split') for (const k of Object.keys(r.splits)) seen[k] = true;
    else seen[r.config[field]] = true;
  }
  return Object.keys(seen).sort((a, b) => (field === 'split' ? SPLITS.indexOf(a as Split) - SPLITS.indexOf(b as Split) : a.localeCompare(b)));
}

function select(name: FilterName, label: string, options: Option[]): HTMLElement {
  const sel = h(
    'select',
    { id: `filter-${name}`, 'data-filter': name, onchange: () => setFilters({ [name]: (sel as HTMLSelectElement).value }) },
    h('option', { value: '', text: 'all' }),
    options.map((o) => h('option', { value: o[0], text: o[1] })),
  );
  return h('label', null, label, sel);
}

function plain(values: string[], names?: Record<string, string>): Option[] {
  return values.map((v) => [v, names ? names[v] || v : v]);
}

/** The kinds the samples show, in the classifier's order, each with how many samples show it. */
function kindOptions(): Option[] {
  const seen: Record<string, number> = {};
  for (const s of SAMPLES) for (const f of s.kinds || []) seen[f.kind] = (seen[f.kind] || 0) + 1;
  return KIND_INFO.order.filter((k) => seen[k]).map((k) => [k, `${k} (${num(seen[k]!)})`]);
}

/** Per monitor: the cheating samples it missed and the legitimate ones it flagged. */
function monitorOptions(): Option[] {
  const out: Option[] = [];
  for (const m of MON.list) {
    const name = m.model + (m.prompt ? ` @${m.prompt}` : '');
    out.push([`missed|${m.id}`, `cheating ${name} missed`], [`flagged|${m.id}`, `legitimate ${name} flagged`]);
  }
  return out;
}

export function buildFilters(): void {
  const datasets = distinct('dataset');
  append(byId('filters'), [
    select('model', 'Model', plain(distinct('model'))),
    // A run over one dataset needs no choice of it.
    datasets.length > 1 && select('dataset', 'Dataset', plain(datasets)),
    select('split', 'Split', plain(distinct('split'), SPLIT_NAME)),
    select('scaffold', 'Scaffold', plain(distinct('scaffold'))),
    select('access', 'Test access', plain(distinct('access'))),
    select('outcome', 'Outcome', OUTCOME_OPTIONS),
    select('kind', 'Cheating kind', kindOptions()),
    MON.list.length ? select('monitor', 'Monitor', monitorOptions()) : null,
    h('button', { type: 'button', id: 'filter-reset', text: 'Reset', onclick: resetFilters }),
    h('span', { class: 'count', id: 'filter-count' }),
  ]);
}
