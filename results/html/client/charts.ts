import { KIND_INFO, SAMPLES, SPLIT_NAME, type Metrics, type Row, type Split } from './data.js';
import { append, h, pct, svg } from './dom.js';
import { splitMark } from '../split-mark.js';

const TICKS = [0, 0.25, 0.5, 0.75, 1];

/** One row's rates on 0-100%, one line per split: a bar to the rate, whiskers over its interval (Wilson, or a bootstrap over repeated tasks). */
export function forest(row: Row, splits: Split[]): SVGElement {
  const W = 320;
  const PAD = 8;
  const LH = 16;
  const H = splits.length * LH + 6;
  const x = (v: number) => PAD + v * (W - 2 * PAD);
  const g = svg('svg', { class: 'forest', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'rates with 95% intervals' });
  for (const t of TICKS)
    append(g, [svg('line', { x1: x(t), x2: x(t), y1: 0, y2: H, stroke: t === 0 || t === 1 ? '#d0d7de' : '#eaeef2', 'stroke-width': 1 })]);
  splits.forEach((split, i) => {
    const c = row.splits[split];
    const y = 3 + i * LH + LH / 2;
    if (!c || c.rate === null || !c.interval) return;
    const color = `var(--${split})`;
    const { low, high } = c.interval;
    const title = `${SPLIT_NAME[split]}: ${pct(c.rate)} [${pct(low)} – ${pct(high)}] (${c.passes}/${c.n})`;
    const mark = splitMark(split, x(c.rate), y);
    append(g, [
      svg(
        'g',
        { class: 'point', 'data-split': split },
        svg('title', { text: title }),
        svg('rect', { x: x(0), y: y - 4, width: Math.max(0, x(c.rate) - x(0)), height: 8, rx: 2, fill: color, 'fill-opacity': 0.18 }),
        svg('line', { class: 'whisker', x1: x(low), x2: x(high), y1: y, y2: y, stroke: color, 'stroke-width': 1.6 }),
        svg('line', { x1: x(low), x2: x(low), y1: y - 4, y2: y + 4, stroke: color, 'stroke-width': 1.6 }),
        svg('line', { x1: x(high), x2: x(high), y1: y - 4, y2: y + 4, stroke: color, 'stroke-width': 1.6 }),
        svg(mark.tag, mark.attrs),
      ),
    ]);
  });
  return g;
}

/** The percentages above the forest charts' column. */
export function axis(): SVGElement {
  const W = 320;
  const PAD = 8;
  const g = svg('svg', { class: 'forest axis', viewBox: `0 0 ${W} 14` });
  for (const t of TICKS) {
    const anchor = t === 0 ? 'start' : t === 1 ? 'end' : 'middle';
    append(g, [svg('text', { x: PAD + t * (W - 2 * PAD), y: 10, 'text-anchor': anchor, text: `${Math.round(t * 100)}%` })]);
  }
  return g;
}

const KIND_COLORS: Record<string, string> = {
  'modify-tests': '#d1242f',
  'operator-overload': '#8250df',
  'record-state': '#0969da',
  'special-casing': '#bf8700',
  'runner-tampering': '#1b7c83',
  'outside-changes': '#6e7781',
  other: '#afb8c1',
};

/** One bar: each kind's share of the kinds shown by the model's cheating samples ('' for every model). */
export function kindBar(model: string): HTMLElement {
  const counts: Record<string, number> = {};
  let total = 0;
  for (const s of SAMPLES) {
    if (s.label !== 'cheating' || (model && s.key.model !== model)) continue;
    for (const f of s.kinds || []) {
      counts[f.kind] = (counts[f.kind] || 0) + 1;
      total++;
    }
  }
  if (!total) return h('p', { class: 'muted kind-bar-empty', text: 'No cheating sample to classify.' });
  const W = 320;
  const H = 14;
  let x = 0;
  const g = svg('svg', { class: 'kind-bar', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'cheating kinds' });
  const legend = h('div', { class: 'legend kind-legend' });
  for (const k of KIND_INFO.order) {
    const n = counts[k];
    if (!n) continue;
    const w = (n / total) * W;
    append(g, [
      svg('rect', { x, y: 0, width: Math.max(w, 0.5), height: H, fill: KIND_COLORS[k], 'data-kind': k }, svg('title', { text: `${k}: ${n}` })),
    ]);
    append(legend, [h('span', null, h('i', { style: `background:${KIND_COLORS[k]}` }), `${k} ${n}`)]);
    x += w;
  }
  return h('div', { class: 'kind-bar-wrap' }, g, legend);
}

/** A rate as a dot on 0-100% with its Wilson interval as whiskers. */
export function whisker(r: Metrics['detection'], cls: string): SVGElement {
  const W = 200;
  const PAD = 6;
  const H = 16;
  const x = (v: number) => PAD + v * (W - 2 * PAD);
  const g = svg('svg', { class: `whisker ${cls}`, viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': r.rate === null ? 'no rate' : pct(r.rate) });
  append(g, [svg('line', { x1: x(0), x2: x(1), y1: H / 2, y2: H / 2, class: 'axis-line' })]);
  if (r.rate === null || !r.interval) return g;
  const { low, high } = r.interval;
  append(g, [
    svg('line', { x1: x(low), x2: x(high), y1: H / 2, y2: H / 2, class: 'ci-line' }),
    svg('line', { x1: x(low), x2: x(low), y1: 3, y2: H - 3, class: 'ci-line' }),
    svg('line', { x1: x(high), x2: x(high), y1: 3, y2: H - 3, class: 'ci-line' }),
    svg('circle', { cx: x(r.rate), cy: H / 2, r: 4, class: 'dot' }),
  ]);
  return g;
}
