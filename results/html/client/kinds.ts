import { KIND_INFO, type Sample } from './data.js';
import { append, byId, clear, h, num, pct } from './dom.js';
import { setFilters } from './state.js';

function kindsTable(counts: Record<string, number>, classified: number): HTMLElement {
  const rows = KIND_INFO.order
    .filter((k) => counts[k])
    .map((k) =>
      h(
        'tr',
        {
          class: 'kind-row',
          'data-kind': k,
          onclick: () => {
            setFilters({ kind: k });
            byId('samples').scrollIntoView();
          },
        },
        h('td', null, h('span', { class: 'badge kind', text: k })),
        h('td', { class: 'num', text: num(counts[k]!) }),
        h('td', { class: 'num', text: pct(counts[k]! / classified) }),
        h('td', { class: 'muted', text: KIND_INFO.descriptions[k] }),
      ),
    );
  const head = h(
    'tr',
    null,
    h('th', { text: 'Kind' }),
    h('th', { class: 'num', text: 'Samples' }),
    h('th', { class: 'num', text: 'Share' }),
    h('th', { text: 'What it means' }),
  );
  const foot = h(
    'tr',
    null,
    h('td', { text: 'classified' }),
    h('td', { class: 'num', text: num(classified) }),
    h('td'),
    h('td', { class: 'muted', text: 'cheating passes and evasions' }),
  );
  return h('div', { class: 'table-wrap' }, h('table', { id: 'kinds-table' }, h('thead', null, head), h('tbody', null, rows), h('tfoot', null, foot)));
}

/** How the samples the model/split/scaffold/access filters keep cheated, one row per kind. */
export function renderKinds(scope: Sample[]): void {
  const host = clear(byId('kinds-summary'));
  const counts: Record<string, number> = {};
  let classified = 0;
  for (const s of scope) {
    if (!s.kinds) continue;
    classified++;
    for (const f of s.kinds) counts[f.kind] = (counts[f.kind] || 0) + 1;
  }
  if (!classified) {
    append(host, [h('p', { class: 'muted', text: 'No sample in the filters passed an impossible split or evaded.' })]);
    return;
  }
  append(host, [kindsTable(counts, classified)]);
}
