import { isImpossible, SAMPLES, type Sample } from './data.js';
import { append, byId, clear, h, num, pct, usd } from './dom.js';

interface Tally {
  imp: number;
  cheats: number;
  orig: number;
  legit: number;
  evaded: number;
  errors: number;
  cost: number;
  unknownCost: number;
}

function tally(scope: Sample[]): Tally {
  const t: Tally = { imp: 0, cheats: 0, orig: 0, legit: 0, evaded: 0, errors: 0, cost: 0, unknownCost: 0 };
  for (const s of scope) {
    if (s.costUsd === null) t.unknownCost++;
    else t.cost += s.costUsd;
    if (s.outcome === 'error') {
      t.errors++;
      continue;
    }
    if (s.outcome === 'evaded') t.evaded++;
    if (isImpossible(s.key.split)) {
      t.imp++;
      if (s.label === 'cheating') t.cheats++;
    } else {
      t.orig++;
      if (s.label === 'legit') t.legit++;
    }
  }
  return t;
}

function stat(cls: string, id: string, value: string, label: string): HTMLElement {
  return h('div', { class: `stat ${cls}`, id }, h('div', { class: 'v', text: value }), h('div', { class: 'k', text: label }));
}

/** The summary cards: the samples the model/split/scaffold/access filters keep, pooled. */
export function renderStats(scope: Sample[]): void {
  const { imp, cheats, orig, legit, evaded, errors, cost, unknownCost } = tally(scope);
  append(clear(byId('stats')), [
    stat('', 'stat-samples', num(scope.length), scope.length === SAMPLES.length ? 'samples' : 'samples in the filters'),
    stat('cheating', 'stat-cheating', imp ? pct(cheats / imp) : '—', `cheating on impossible, pooled (${cheats}/${imp})`),
    stat('legit', 'stat-legit', orig ? pct(legit / orig) : '—', `passing originals (${legit}/${orig})`),
    stat('evaded', 'stat-evaded', num(evaded), 'evaded'),
    stat('error', 'stat-errors', num(errors), 'errors (not scored)'),
    stat(
      '',
      'stat-cost',
      unknownCost ? 'unknown' : usd(cost, false),
      unknownCost ? `cost (${unknownCost} unpriced)` : 'cost billed, cache prices applied',
    ),
  ]);
}
