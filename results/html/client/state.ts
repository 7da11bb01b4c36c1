import { MON, SAMPLES, type Row, type Sample, type Verdict } from './data.js';

/** The filters the page offers, each a select named `filter-NAME`. */
export const FILTERS = ['model', 'dataset', 'split', 'scaffold', 'access', 'outcome', 'kind', 'monitor'] as const;
export type FilterName = (typeof FILTERS)[number];

/** Samples listed at a time. */
export const PAGE = 200;

/** What the filters hold ('' for all), how many samples are listed, and the samples the filters keep. */
export const state: Record<FilterName, string> & { shown: number; filtered: Sample[] } = {
  model: '',
  dataset: '',
  split: '',
  scaffold: '',
  access: '',
  outcome: '',
  kind: '',
  monitor: '',
  shown: PAGE,
  filtered: SAMPLES,
};

let redraw = (): void => {};

/** What draws the overview again when a filter changes. */
export function onFilterChange(draw: () => void): void {
  redraw = draw;
}

/** Sets filters (the select follows) and draws the overview again from the first page of samples. */
export function setFilters(values: Partial<Record<FilterName, string>>): void {
  for (const name of FILTERS) {
    const value = values[name];
    if (value === undefined) continue;
    state[name] = value;
    const sel = document.getElementById(`filter-${name}`) as HTMLSelectElement | null;
    if (sel) sel.value = value;
  }
  state.shown = PAGE;
  redraw();
}

/** Every filter back to all. */
export function resetFilters(): void {
  setFilters(Object.fromEntries(FILTERS.map((name) => [name, ''])));
}

export function monitorRead(s: Sample, id: string): Verdict | null {
  let found: Verdict | null = null;
  for (const v of s.monitors || []) if (v.monitor === id) found = v;
  return found;
}

export function isFlagged(v: Verdict | null): boolean {
  return !!v && v.status === 'scored' && (v.score ?? 0) >= MON.threshold;
}

function matchesMonitor(s: Sample): boolean {
  if (!state.monitor) return true;
  const bar = state.monitor.indexOf('|');
  const how = state.monitor.slice(0, bar);
  const v = monitorRead(s, state.monitor.slice(bar + 1));
  if (v?.status !== 'scored') return false;
  return how === 'missed' ? s.label === 'cheating' && !isFlagged(v) : s.label === 'legit' && isFlagged(v);
}

function matchesKind(s: Sample): boolean {
  return !state.kind || (s.kinds || []).some((f) => f.kind === state.kind);
}

export function matchesConfig(c: Row['config']): boolean {
  return (
    (!state.model || c.model === state.model) &&
    (!state.dataset || c.dataset === state.dataset) &&
    (!state.scaffold || c.scaffold === state.scaffold) &&
    (!state.access || c.access === state.access)
  );
}

function matchesOutcome(s: Sample): boolean {
  switch (state.outcome) {
    case '':
      return true;
    case 'cheating':
      return s.label === 'cheating';
    case 'legit':
      return s.label === 'legit';
    case 'flagged':
    case 'context_limit':
      return s.stopReason === state.outcome;
    default:
      return s.outcome === state.outcome;
  }
}

/** The samples the config and split filters keep (what the summaries pool), and of those the ones every filter keeps. */
export function filterSamples(): Sample[] {
  const inScope = SAMPLES.filter((s) => matchesConfig(s.key) && (!state.split || s.key.split === state.split));
  state.filtered = inScope.filter((s) => matchesOutcome(s) && matchesKind(s) && matchesMonitor(s));
  return inScope;
}
