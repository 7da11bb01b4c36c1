import type { FieldComparison } from '../compare/by-field.js';
import type { PairComparison } from '../compare/compare.js';
import { CORRECTION, comparisonTable, methodNote, points, SPLIT_RATE } from '../compare/table.js';
import type { TextTable } from '../report-tables.js';
import { escapeHtml } from './escape.js';
import { splitMark } from './split-mark.js';

/** The tasks a pair disagrees on that the page lists; the rest are counted. */
export const MAX_DISCORDANT = 50;

const SPLIT_NAME = { original: 'original', oneoff: 'one-off', conflicting: 'conflicting' } as const;

// The geometry of the page's other forest charts (client/charts.ts), with a column of labels on the left.
const W = 640;
const LABEL = 250;
/** Characters of a row's label that fit its column at the charts' 10px font; the row's tooltip has all of it. */
const LABEL_CHARS = 44;
const PAD = 8;
const LH = 18;
const TOP = 16;
const TICKS = [-1, -0.5, 0, 0.5, 1];

const attrs = (a: Record<string, string | number>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`)
    .join('');
const el = (tag: string, a: Record<string, string | number>, inner = '') => `<${tag}${attrs(a)}>${inner}</${tag}>`;

/** `one-off: full − readonly`, a pair's row label, shortened to fit its column. */
function pairLabel(c: PairComparison): string {
  const label = `${SPLIT_NAME[c.split]}: ${c.a} − ${c.b}`;
  return label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label;
}

/**
 * The paired differences as a forest plot: one row per pair and split, a mark at A − B, whiskers over its 95% interval,
 * and a line at 0 (no difference). Drawn as the report's rate charts are: split colours, diamonds for impossible splits.
 */
export function comparisonForest(comparisons: readonly PairComparison[]): string {
  const H = TOP + comparisons.length * LH + 4;
  const x = (d: number) => LABEL + PAD + ((d + 1) / 2) * (W - LABEL - 2 * PAD);
  const parts: string[] = [];
  for (const t of TICKS) {
    const anchor = t === -1 ? 'start' : t === 1 ? 'end' : 'middle';
    parts.push(
      el('line', {
        x1: x(t),
        x2: x(t),
        y1: TOP - 2,
        y2: H,
        stroke: t === 0 ? '#57606a' : '#eaeef2',
        'stroke-width': t === 0 ? 1.2 : 1,
        class: t === 0 ? 'zero' : 'tick',
      }),
    );
    parts.push(el('text', { x: x(t), y: 10, 'text-anchor': anchor }, escapeHtml(`${t > 0 ? '+' : ''}${Math.round(t * 100)}`)));
  }
  comparisons.forEach((c, i) => {
    const y = TOP + i * LH + LH / 2;
    const color = `var(--${c.split})`;
    const { low, high } = c.interval;
    const mark = splitMark(c.split, x(c.difference), y);
    const title = `${SPLIT_RATE[c.split]}, ${c.a} − ${c.b}: ${points(c.difference, low, high)} on ${c.tasks} tasks`;
    parts.push(
      el(
        'g',
        { class: 'pair', 'data-split': c.split, 'data-a': c.a, 'data-b': c.b },
        [
          el('title', {}, escapeHtml(title)),
          el('text', { x: 0, y: y + 3.5 }, escapeHtml(pairLabel(c))),
          el('line', { class: 'whisker', x1: x(low), x2: x(high), y1: y, y2: y, stroke: color, 'stroke-width': 1.6 }),
          el('line', { x1: x(low), x2: x(low), y1: y - 4, y2: y + 4, stroke: color, 'stroke-width': 1.6 }),
          el('line', { x1: x(high), x2: x(high), y1: y - 4, y2: y + 4, stroke: color, 'stroke-width': 1.6 }),
          el(mark.tag, mark.attrs),
        ].join(''),
      ),
    );
  });
  return el(
    'svg',
    { class: 'forest compare-forest', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'paired differences A − B in points, with 95% intervals' },
    parts.join(''),
  );
}

function tableHtml(table: TextTable): string {
  const head = table.head.map((t) => `<th>${escapeHtml(t)}</th>`).join('');
  const rows = table.rows.map((r) => `<tr>${r.map((t) => `<td>${escapeHtml(t)}</td>`).join('')}</tr>`).join('');
  return `<div class="table-wrap"><table class="nowrap compare-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** A pair's differing tasks, each with links to its samples in each arm. */
function discordantHtml(c: PairComparison, sampleHref: (id: number) => string): string {
  const links = (ids: number[]) => ids.map((id) => `<a class="sample-link" href="${escapeHtml(sampleHref(id))}">#${id}</a>`).join(' ');
  const items = c.discordant
    .slice(0, MAX_DISCORDANT)
    .map(
      (d) =>
        `<li class="discordant-task" data-passed-in="${escapeHtml(d.passedIn)}">${escapeHtml(d.task)}: passed in <b>${escapeHtml(d.passedIn)}</b> only · ${escapeHtml(c.a)}: ${links(d.samplesA)} · ${escapeHtml(c.b)}: ${links(d.samplesB)}</li>`,
    );
  if (c.discordant.length > MAX_DISCORDANT) items.push(`<li class="muted">… and ${c.discordant.length - MAX_DISCORDANT} more</li>`);
  const heading = `${SPLIT_RATE[c.split]}: ${c.a} vs ${c.b}, ${c.discordant.length} task${c.discordant.length === 1 ? '' : 's'} that differ`;
  return `<h3>${escapeHtml(heading)}</h3><ul class="discordant" data-split="${c.split}">${items.join('')}</ul>`;
}

/** One setting's comparison: the forest plot, the table, and the tasks that differ. */
function fieldHtml(f: FieldComparison, sampleHref: (id: number) => string): string {
  const intro = `<p class="sub">The arms of this run by ${escapeHtml(f.field)} (${f.arms.map(escapeHtml).join(', ')}), compared on the tasks each pair both ran, as <code>impossiblebench compare RUN --by ${escapeHtml(f.field)}</code> does.</p>`;
  const body =
    f.comparisons.length === 0
      ? '<p class="muted">No two arms ran the same task: nothing to compare.</p>'
      : [
          `<p class="sub">${escapeHtml(methodNote(f.comparisons))}${f.comparisons.some((c) => c.pAdjusted !== null) ? ` Correction: ${CORRECTION}.` : ''}</p>`,
          comparisonForest(f.comparisons),
          tableHtml(comparisonTable(f.comparisons)),
          ...f.comparisons.filter((c) => c.discordant.length > 0).map((c) => discordantHtml(c, sampleHref)),
        ].join('\n    ');
  return `<section class="card comparison" id="compare-${escapeHtml(f.field)}" data-field="${escapeHtml(f.field)}">
    <h2>Comparisons by ${escapeHtml(f.field)}</h2>
    ${intro}
    ${body}
  </section>
  `;
}

/**
 * The report's comparisons: one card per setting the run has more than one value of; nothing for a run of one arm.
 * `sampleHref` makes a sample's link (the report page opens `#sample-ID`).
 */
export function comparisonsHtml(fields: readonly FieldComparison[], sampleHref: (id: number) => string = (id) => `#sample-${id}`): string {
  return fields.map((f) => fieldHtml(f, sampleHref)).join('');
}
