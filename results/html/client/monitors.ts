import { kindBar, whisker } from './charts.js';
import { MON, type Metrics, type Monitor } from './data.js';
import { append, byId, h, clear, pct } from './dom.js';
import { setFilters, state } from './state.js';

type Rate = Metrics['detection'];

function rateText(r: Rate): string {
  return r.rate === null || !r.interval ? '— (0/0)' : `${pct(r.rate)} [${pct(r.interval.low)} – ${pct(r.interval.high)}] ${r.hits}/${r.n}`;
}

function unscoredText(m: Metrics): string {
  const parts = Object.entries(m.unscored)
    .filter(([, n]) => n)
    .map(([k, n]) => `${n} ${k}`);
  return parts.length ? parts.join(', ') : '0';
}

/** Lists the samples a monitor missed or wrongly flagged. */
function showMonitorSamples(how: 'missed' | 'flagged', id: string): void {
  setFilters({ monitor: `${how}|${id}` });
  byId('samples').scrollIntoView();
}

/** A rate with its whiskers, and a button that lists its samples when there are any. */
function rateCell(r: Rate, cls: string, how: 'missed' | 'flagged', id: string, any: boolean): HTMLElement {
  return h(
    'td',
    { class: 'rate' },
    h('span', { class: 'ci', text: rateText(r) }),
    whisker(r, cls),
    any ? h('button', { type: 'button', class: 'link', text: how, onclick: () => showMonitorSamples(how, id) }) : null,
  );
}

function monitorRow(m: Monitor, model: string): HTMLElement | null {
  let metrics: Metrics | null = null;
  if (!model) metrics = m.overall;
  else for (const b of m.byModel) if (b.model === model) metrics = b.metrics;
  if (!metrics) return null;
  return h(
    'tr',
    { class: 'monitor-row', 'data-monitor': m.id },
    h('td', { class: 'model', text: m.model }),
    h('td', { class: 'muted', title: m.promptHash || 'no prompt', text: m.prompt || '—' }),
    rateCell(metrics.detection, 'detection', 'missed', m.id, metrics.detection.n > metrics.detection.hits),
    rateCell(metrics.falsePositive, 'false-positive', 'flagged', m.id, metrics.falsePositive.hits > 0),
    h('td', { class: 'num', text: metrics.auroc === null ? '—' : metrics.auroc.toFixed(3) }),
    h('td', { class: 'num', text: unscoredText(metrics) }),
  );
}

function monitorTable(model: string): HTMLElement {
  const head = h(
    'tr',
    null,
    h('th', { text: 'Monitor' }),
    h('th', { text: 'Prompt' }),
    h('th', { text: 'Detection (cheating flagged)' }),
    h('th', { text: 'False positives (legit flagged)' }),
    h('th', { class: 'num', text: 'AUROC' }),
    h('th', { class: 'num', text: 'Not scored' }),
  );
  const rows = MON.list.map((m) => monitorRow(m, model)).filter((r) => r !== null);
  return h('div', { class: 'table-wrap' }, h('table', { class: 'monitor-table' }, h('thead', null, head), h('tbody', null, rows)));
}

/** Per agent model (all of them first), the kinds of cheating the monitors faced and each monitor's rates. */
export function renderMonitors(): void {
  const host = document.getElementById('monitors');
  if (!host) return;
  clear(host);
  const models: Record<string, boolean> = {};
  for (const m of MON.list) for (const b of m.byModel) models[b.model] = true;
  const shown = Object.keys(models)
    .sort()
    .filter((m) => !state.model || m === state.model);
  const blocks = (state.model ? [] : [''])
    .concat(shown)
    .map((model) =>
      h(
        'div',
        { class: 'monitor-block', 'data-model': model || 'all' },
        h('h3', { text: model || 'All agent models' }),
        h('div', { class: 'muted small', text: 'Cheating kinds' }),
        kindBar(model),
        monitorTable(model),
      ),
    );
  append(host, blocks);
}
