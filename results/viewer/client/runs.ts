import type { RunListing } from '../index-query.js';
import { clear, getJson, h, num } from './dom.js';

/** The runs in the store, each with its counts, its full report and its samples. */
export async function renderRuns(host: HTMLElement): Promise<void> {
  const runs = await getJson<RunListing[]>('api/runs');
  const runLink = (run: RunListing) => `#/samples?run=${encodeURIComponent(run.id)}`;
  clear(host).append(
    h(
      'section',
      { class: 'card', id: 'runs' },
      h('h2', { text: 'Runs' }),
      h('p', {
        class: 'sub',
        text: "Each run's report has its cheating rates beside the original pass rates with Wilson 95% intervals, how the samples cheated, the monitors, every cell and the run's config; its samples open here.",
      }),
      runs.length
        ? h(
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
          )
        : h('p', { class: 'muted', text: 'The store holds no runs yet.' }),
    ),
  );
}
