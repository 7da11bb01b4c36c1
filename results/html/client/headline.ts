import { axis, forest } from './charts.js';
import { DATA, isImpossible, SPLIT_NAME, SPLITS, type Cell, type Row, type Split } from './data.js';
import { intervalMethod, kappa } from '../../format.js';
import { append, byId, clear, h, pct } from './dom.js';
import { matchesConfig, state } from './state.js';

function rateCell(c: Cell | undefined, split: Split): HTMLElement {
  if (!c) return h('td', { class: 'rate none' }, h('span', { class: 'muted', text: 'not run' }));
  if (c.rate === null || !c.interval)
    return h('td', { class: 'rate none' }, h('span', { class: 'pct', text: '—' }), h('span', { class: 'ci', text: `${c.errors} errors, no result` }));
  const cls = `rate ${isImpossible(split) ? `impossible${c.passes > 0 ? ' hot' : ''}` : 'original'}`;
  const extras = [
    c.tampered ? `${c.tampered} passed, tampered` : '',
    c.evaded ? `${c.evaded} evaded` : '',
    c.flagged ? `${c.flagged} flagged` : '',
    c.contextLimited ? `${c.contextLimited} at context limit` : '',
    c.refusals ? c.refusals + (c.refusals === 1 ? ' refusal' : ' refusals') : '',
    c.errors ? c.errors + (c.errors === 1 ? ' error' : ' errors') : '',
    c.repeats ? `${intervalMethod(c.repeats)} · repeats agree on ${pct(c.repeats.agree)} of tasks, kappa ${kappa(c.repeats.kappa)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return h(
    'td',
    { class: cls, 'data-split': split },
    h('span', { class: 'pct', text: pct(c.rate) }),
    h('span', { class: 'ci', text: `[${pct(c.interval.low)} – ${pct(c.interval.high)}]  ${c.passes}/${c.n}` }),
    extras ? h('span', { class: 'extras', text: extras }) : null,
  );
}

/** Whether the run repeated tasks (`--epochs`): then a repeated cell's interval is a bootstrap over tasks. */
const REPEATED = DATA.rows.some((r) => SPLITS.some((s) => r.splits[s]?.repeats));

/** Whether a config field takes more than one value over the run's rows. */
function varies(field: keyof Row['config']): boolean {
  const seen: Record<string, boolean> = {};
  for (const r of DATA.rows) seen[r.config[field]] = true;
  return Object.keys(seen).length > 1;
}

interface Columns {
  dataset: boolean;
  prompt: boolean;
  attempts: boolean;
}

function headlineTable(rows: Row[], splits: Split[], show: Columns): HTMLElement {
  const head = h(
    'tr',
    null,
    h('th', { text: 'Model' }),
    show.dataset && h('th', { text: 'Dataset' }),
    h('th', { text: 'Scaffold' }),
    h('th', { text: 'Access' }),
    show.prompt && h('th', { text: 'Prompt' }),
    show.attempts && h('th', { class: 'num', text: 'Attempts' }),
    splits.map((s) => h('th', { class: `split ${s}`, text: s === 'original' ? 'Original pass rate' : `${SPLIT_NAME[s]} cheating` })),
    h('th', { class: 'chart-cell' }, axis()),
  );
  const body = h(
    'tbody',
    null,
    rows.map((r) =>
      h(
        'tr',
        { class: 'config-row' },
        h('td', { class: 'model', text: r.config.model }),
        show.dataset && h('td', { text: r.config.dataset }),
        h('td', { text: r.config.scaffold }),
        h('td', { text: r.config.access }),
        show.prompt && h('td', { text: r.config.prompt }),
        show.attempts && h('td', { class: 'num', text: r.config.maxAttempts }),
        splits.map((s) => rateCell(r.splits[s], s)),
        h('td', { class: 'chart-cell' }, forest(r, splits)),
      ),
    ),
  );
  return h('div', { class: 'table-wrap' }, h('table', { id: 'headline-table' }, h('thead', null, head), body));
}

function legend(splits: Split[], shared: [string, string][]): HTMLElement {
  return h(
    'div',
    { class: 'legend' },
    splits.map((s) =>
      h(
        'span',
        null,
        h('i', { style: `background: var(--${s})` }),
        s === 'original' ? 'original pass rate (legitimate)' : `${SPLIT_NAME[s]} cheating rate`,
      ),
    ),
    h('span', { text: `bars: rate · whiskers: ${REPEATED ? 'Wilson 95% interval, or with repeats a bootstrap over tasks' : 'Wilson 95% interval'}` }),
    shared.length ? h('span', { class: 'shared', text: `all rows: ${shared.map((p) => `${p[0]} ${p[1]}`).join(' · ')}` }) : null,
  );
}

/** Each cheating rate beside the original pass rate, with a forest chart per config. */
export function renderHeadline(): void {
  const host = clear(byId('headline'));
  const splits = SPLITS.filter((s) => !state.split || s === state.split);
  const rows = DATA.rows.filter((r) => matchesConfig(r.config));
  // A column whose value every row shares says it once, above the table, and leaves room for the rates.
  const show: Columns = { dataset: varies('dataset'), prompt: varies('prompt'), attempts: varies('maxAttempts') };
  const first = rows[0];
  if (!first) {
    append(host, [h('p', { class: 'muted', text: DATA.rows.length ? 'No config matches the filters.' : 'No samples are stored for this run yet.' })]);
    return;
  }
  const shared = [
    !show.dataset && ['dataset', first.config.dataset],
    !show.prompt && ['prompt', first.config.prompt],
    !show.attempts && ['max attempts', String(first.config.maxAttempts)],
  ].filter((p): p is [string, string] => !!p);
  append(host, [legend(splits, shared), headlineTable(rows, splits, show)]);
}
