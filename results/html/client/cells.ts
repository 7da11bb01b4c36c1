import { DATA, SPLIT_NAME, SPLITS, type Cell } from './data.js';
import { kappa } from '../../format.js';
import { append, byId, clear, h, num, pct, usd } from './dom.js';
import { matchesConfig, state } from './state.js';

const TEXT_COLUMNS = ['Model', 'Dataset', 'Split', 'Scaffold', 'Access', 'Prompt'];
const NUM_COLUMNS = ['Max att.', 'n', 'Passes', 'Rate', '95% CI', 'Tampered', 'Evaded', 'Flagged', 'Errors', 'Mean att.', 'Tokens', 'Cost'];
/** With repeats (`--epochs`): how many each task had, and how consistently they came out. */
const REPEAT_COLUMNS = ['Repeats', 'Repeats agree', 'Kappa'];
const REPEATED = DATA.rows.some((r) => SPLITS.some((s) => r.splits[s]?.repeats));

function cellRow(c: Cell): HTMLElement {
  const k = c.cell;
  return h(
    'tr',
    null,
    h('td', { text: k.model }),
    h('td', { text: k.dataset }),
    h('td', { class: `split ${k.split}`, text: SPLIT_NAME[k.split] }),
    h('td', { text: k.scaffold }),
    h('td', { text: k.access }),
    h('td', { text: k.prompt }),
    h('td', { class: 'num', text: k.maxAttempts }),
    h('td', { class: 'num', text: c.n }),
    h('td', { class: 'num', text: c.passes }),
    h('td', { class: 'num', text: pct(c.rate) }),
    h('td', {
      class: 'num',
      text: c.interval ? `${pct(c.interval.low)} – ${pct(c.interval.high)}${c.repeats ? ' (bootstrap over tasks)' : ''}` : '—',
    }),
    h('td', { class: 'num', text: c.tampered }),
    h('td', { class: 'num', text: c.evaded }),
    h('td', { class: 'num', text: c.flagged }),
    h('td', { class: 'num', text: c.errors }),
    h('td', { class: 'num', text: c.meanAttempts === null ? '—' : c.meanAttempts.toFixed(2) }),
    h('td', { class: 'num', text: num(c.inputTokens + c.outputTokens) }),
    h('td', { class: 'num', text: usd(c.costUsd, c.costUnknown > 0) }),
    REPEATED && [
      h('td', { class: 'num', text: c.repeats ? c.repeats.perTask : '—' }),
      h('td', { class: 'num', text: c.repeats ? pct(c.repeats.agree) : '—' }),
      h('td', { class: 'num', text: c.repeats ? kappa(c.repeats.kappa) : '—' }),
    ],
  );
}

/** Every cell the filters keep, with all its counts. */
export function renderCells(): void {
  const host = clear(byId('cells'));
  const cells: Cell[] = [];
  for (const r of DATA.rows) {
    if (!matchesConfig(r.config)) continue;
    for (const s of SPLITS) {
      const c = r.splits[s];
      if (c && (!state.split || s === state.split)) cells.push(c);
    }
  }
  const head = h(
    'tr',
    null,
    TEXT_COLUMNS.map((t) => h('th', { text: t })),
    NUM_COLUMNS.map((t) => h('th', { class: 'num', text: t })),
    REPEATED && REPEAT_COLUMNS.map((t) => h('th', { class: 'num', text: t })),
  );
  append(host, [
    h(
      'div',
      { class: 'table-wrap' },
      h('table', { class: 'nowrap', id: 'cells-table' }, h('thead', null, head), h('tbody', null, cells.map(cellRow))),
    ),
  ]);
}
