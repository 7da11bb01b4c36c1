import type { RunListing } from '../index-query.js';
import type { RunSummary } from '../run-summary.js';
import type { StoreStatus } from '../server.js';
import { clear, getJson, h, num, textTable } from './dom.js';

/** One run's summary, as its report has it: rates with Wilson 95% intervals, kinds, monitors. */
function summaryCard(run: RunListing, summary: RunSummary, status: StoreStatus): HTMLElement {
  const { rates } = summary;
  const notIndexed = `Kinds and the static classifier need the store's kinds index, which this store does not have yet: ${status.indexCommand}`;
  return h(
    'section',
    { class: 'card run-summary', 'data-run': run.id },
    h('h3', { text: `Run ${run.id}` }),
    rates.fixed.length ? h('p', { class: 'sub', text: `All rows: ${rates.fixed.map(([k, v]) => `${k} ${v}`).join(', ')}.` }) : null,
    rates.rows.length ? textTable(rates, 'rates') : h('p', { class: 'muted', text: 'No samples are stored for this run yet.' }),
    h('h4', { text: 'How the samples cheated' }),
    summary.kindsIndexed
      ? summary.kinds
        ? textTable(summary.kinds, 'kinds')
        : h('p', { class: 'muted', text: 'No sample passed an impossible split or evaded.' })
      : h('p', { class: 'muted not-indexed', text: notIndexed }),
    h('h4', { text: `Monitors (flagged at a score of ${summary.threshold} or more)` }),
    summary.monitors ? textTable(summary.monitors, 'monitors') : h('p', { class: 'muted', text: 'No monitor has read this run.' }),
    h(
      'p',
      null,
      h('a', { class: 'report', href: `runs/${encodeURIComponent(run.id)}/report`, text: 'the full report: every cell, charts, config and events' }),
    ),
    summary.armFields.length
      ? h(
          'p',
          null,
          h('a', {
            class: 'compare',
            href: `#/compare?run=${encodeURIComponent(run.id)}`,
            text: `compare its arms by ${summary.armFields.join(', ')}: paired differences and the tasks that differ`,
          }),
        )
      : null,
  );
}

/** The runs in the store, each with its counts, its rate table, kinds and monitors, its full report and its samples. */
export async function renderRuns(host: HTMLElement): Promise<void> {
  const [runs, status] = await Promise.all([getJson<RunListing[]>('api/runs'), getJson<StoreStatus>('api/store')]);
  const summaries = await Promise.all(runs.map((run) => getJson<RunSummary>(`api/runs/${encodeURIComponent(run.id)}/summary`)));
  const runLink = (run: RunListing) => `#/samples?run=${encodeURIComponent(run.id)}`;
  clear(host).append(
    h(
      'section',
      { class: 'card', id: 'runs' },
      h('h2', { text: 'Runs' }),
      h('p', {
        class: 'sub',
        text: "Each run's cheating rates beside the original pass rates with Wilson 95% intervals, how the samples cheated and the monitors are below; its full report adds every cell and the run's config; its samples open here.",
      }),
      runs.length ? textTableOfRuns(runs, runLink) : h('p', { class: 'muted', text: 'The store holds no runs yet.' }),
    ),
    ...runs.map((run, i) => summaryCard(run, summaries[i]!, status)),
  );
}

function textTableOfRuns(runs: RunListing[], runLink: (run: RunListing) => string): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: 'runs-table', class: 'nowrap' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Run', 'Status', 'Started', 'Samples', 'Passed', 'Cheating', 'Report'].map((t) => h('th', { text: t })),
        ),
      ),
      h(
        'tbody',
        null,
        runs.map((run) =>
          h(
            'tr',
            { 'data-run': run.id },
            h('td', null, h('a', { href: runLink(run), text: run.id })),
            h('td', { text: run.status }),
            h('td', { text: run.startedAt }),
            h('td', { class: 'num', text: num(run.samples) }),
            h('td', { class: 'num', text: num(run.passed) }),
            h('td', { class: 'num' }, h('a', { href: `${runLink(run)}&label=cheating`, text: num(run.cheating) })),
            h('td', null, h('a', { class: 'report', href: `runs/${encodeURIComponent(run.id)}/report`, text: 'rates, kinds, monitors' })),
          ),
        ),
      ),
    ),
  );
}
