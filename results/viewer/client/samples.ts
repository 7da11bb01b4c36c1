import type { IndexRow } from '../index-query.js';
import type { StoreStatus } from '../server.js';
import { append, clear, getJson, h, num, usd } from './dom.js';

const FILTERS = ['run', 'model', 'dataset', 'split', 'scaffold', 'access', 'prompt', 'outcome', 'label', 'stop', 'kind', 'interview'] as const;
/** Menu text where a filter's value alone would not say it: the interview's `any` keeps every interviewed sample. */
const OPTION_TEXT: Record<string, string> = { 'interview:any': 'interviewed', 'interview:not-asked': 'not asked' };
/** Range bounds: tokens (in and out) and cost in USD, each inclusive. */
const RANGES: [name: string, placeholder: string][] = [
  ['tokensMin', 'tokens ≥'],
  ['tokensMax', 'tokens ≤'],
  ['costMin', 'cost ≥ $'],
  ['costMax', 'cost ≤ $'],
];
const COLUMNS: [label: string, sort: string | null][] = [
  ['Task', 'task'],
  ['Run', 'run'],
  ['Model', 'model'],
  ['Dataset', 'dataset'],
  ['Split', 'split'],
  ['Scaffold', 'scaffold'],
  ['Access', 'access'],
  ['Outcome', 'outcome'],
  ['Label', 'label'],
  ['Interview', null],
  ['Stop', 'stop'],
  ['Evidence', null],
  ['Tokens', 'tokens'],
  ['Cost', 'cost'],
];
const PAGE = 50;

/** The index state lives in the hash, so a filtered list is a link too. */
function go(params: URLSearchParams): void {
  location.hash = `#/samples?${params.toString()}`;
}

function filterBar(params: URLSearchParams, facets: Record<string, string[]>, status: StoreStatus): HTMLElement {
  const change = (name: string, value: string) => {
    if (value) params.set(name, value);
    else params.delete(name);
    params.delete('offset');
    go(params);
  };
  const selects = FILTERS.map((name) => {
    const select = h('select', {
      id: `filter-${name}`,
      'aria-label': name,
      onchange: (e) => change(name, (e.target as HTMLSelectElement).value),
    }) as HTMLSelectElement;
    append(select, [
      h('option', { value: '', text: `any ${name}` }),
      (facets[name] ?? []).map((v) => h('option', { value: v, text: OPTION_TEXT[`${name}:${v}`] ?? v })),
    ]);
    select.value = params.get(name) ?? '';
    // Without the kinds index the store cannot be filtered by kind; the notice says how to build it.
    if (name === 'kind' && !status.indexes.kinds) select.disabled = true;
    // Before any sample was interviewed there is nothing to pick.
    if (name === 'interview' && !facets.interview?.length) select.disabled = true;
    return select;
  });
  const ranges = RANGES.map(([name, placeholder]) =>
    h('input', {
      id: `range-${name}`,
      name,
      type: 'number',
      min: '0',
      step: 'any',
      class: 'range',
      placeholder,
      'aria-label': placeholder,
      value: params.get(name) ?? '',
    }),
  ) as HTMLInputElement[];
  const search = h('input', {
    id: 'search',
    type: 'search',
    placeholder: 'text in a transcript (any case)',
    value: params.get('q') ?? '',
  }) as HTMLInputElement;
  const submit = (e: Event) => {
    e.preventDefault();
    for (const input of ranges) {
      if (input.value) params.set(input.name, input.value);
      else params.delete(input.name);
    }
    change('q', search.value);
  };
  return h('form', { class: 'index-filters', onsubmit: submit }, selects, ranges, search, h('button', { type: 'submit', text: 'Search' }));
}

/** Said when the store lacks an index: what works without it, and the command that builds it. */
function notIndexedNotice(status: StoreStatus): HTMLElement | null {
  const missing = [status.indexes.kinds ? '' : 'cheating kinds', status.indexes.transcripts ? '' : 'transcript text'].filter(Boolean);
  if (missing.length === 0) return null;
  return h('p', {
    class: 'notice',
    id: 'not-indexed',
    text: [
      `This store's ${missing.join(' and ')} are not indexed yet`,
      status.indexes.kinds ? '' : 'the kind filter is off',
      status.indexes.transcripts ? '' : 'a search scans every message',
    ]
      .filter(Boolean)
      .join(': ')
      .concat(`. Index them with: ${status.indexCommand}`),
  });
}

function indexRow(s: IndexRow): HTMLElement {
  const href = `#/sample/${s.id}`;
  return h(
    'tr',
    { class: `sample outcome-${s.outcome}`, 'data-id': s.id, onclick: () => (location.hash = href) },
    h('td', null, h('a', { href, text: s.taskId })),
    [s.runId, s.model, s.dataset, s.split, s.scaffold, s.access].map((t) => h('td', { text: t })),
    h('td', null, h('span', { class: `badge ${s.outcome}`, text: s.outcome })),
    h('td', null, s.label === 'none' ? '' : h('span', { class: `badge ${s.label}`, text: s.label })),
    h('td', { class: 'interview', 'data-interview': s.interview ?? '', text: s.interview === 'not-asked' ? 'not asked' : (s.interview ?? '') }),
    h('td', { class: 'muted', text: s.stopReason.replace('_', ' ') }),
    h(
      'td',
      null,
      s.testEdited ? h('span', { class: 'badge tests', text: 'tests edited' }) : null,
      s.tamper.length ? h('span', { class: 'badge cheating', title: s.tamper.join('; '), text: 'tampered' }) : null,
      (s.kinds ?? []).map((kind) => [' ', h('span', { class: 'badge kind', 'data-kind': kind, text: kind })]),
    ),
    h('td', { class: 'num', text: num(s.inputTokens + s.outputTokens) }),
    h('td', { class: 'num', text: usd(s.costUsd) }),
  );
}

function headerCell(label: string, sort: string | null, params: URLSearchParams): HTMLElement {
  if (!sort) return h('th', { text: label });
  const current = (params.get('sort') ?? 'id') === sort;
  const dir = current && params.get('dir') !== 'desc' ? 'desc' : 'asc';
  const arrow = current ? (params.get('dir') === 'desc' ? ' ↓' : ' ↑') : '';
  return h('th', {
    class: 'sortable',
    'data-sort': sort,
    text: label + arrow,
    onclick: () => {
      params.set('sort', sort);
      params.set('dir', dir);
      params.delete('offset');
      go(params);
    },
  });
}

/** The samples of the whole store, a page at a time, filtered, sorted and searched by the viewer's queries. */
export async function renderSamples(host: HTMLElement, params: URLSearchParams): Promise<void> {
  const offset = Number(params.get('offset') ?? 0);
  const query = new URLSearchParams(params);
  query.set('limit', String(PAGE));
  const [facets, page, status] = await Promise.all([
    getJson<Record<string, string[]>>('api/facets'),
    getJson<{ total: number; rows: IndexRow[] }>(`api/samples?${query}`),
    getJson<StoreStatus>('api/store'),
  ]);
  const pageTo = (to: number) => () => {
    params.set('offset', String(to));
    go(params);
  };
  const shown = page.rows.length ? `${num(offset + 1)}–${num(offset + page.rows.length)} of ${num(page.total)} samples` : 'No sample matches.';
  clear(host).append(
    h(
      'section',
      { class: 'card' },
      h('h2', { text: 'Samples' }),
      notIndexedNotice(status),
      filterBar(params, facets, status),
      h('p', { class: 'sub', id: 'index-count', 'data-total': page.total, text: shown }),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { id: 'index-table', class: 'nowrap' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              COLUMNS.map(([label, sort]) => headerCell(label, sort, params)),
            ),
          ),
          h('tbody', null, page.rows.map(indexRow)),
        ),
      ),
      h(
        'div',
        { class: 'pager' },
        offset > 0 ? h('button', { id: 'prev-page', text: '‹ previous', onclick: pageTo(Math.max(0, offset - PAGE)) }) : null,
        offset + PAGE < page.total ? h('button', { id: 'next-page', text: 'next ›', onclick: pageTo(offset + PAGE) }) : null,
      ),
    ),
  );
}
