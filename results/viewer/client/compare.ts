import type { RunComparison } from '../run-compare.js';
import { clear, getJson, h, textTable } from './dom.js';

/** The cap on each pair's list of tasks that differ: beyond it they are counted. */
const MAX_TASKS = 100;

function go(run: string, by: string): void {
  location.hash = `#/compare?run=${encodeURIComponent(run)}&by=${encodeURIComponent(by)}`;
}

/** A pair's tasks that differ, each with links to its samples in each arm. */
function pairList(pair: RunComparison['pairs'][number]): HTMLElement[] {
  const links = (ids: number[]) => ids.map((id) => [' ', h('a', { class: 'sample-link', href: `#/sample/${id}`, text: `#${id}` })]);
  const items = pair.discordant
    .slice(0, MAX_TASKS)
    .map((d) =>
      h(
        'li',
        { class: 'discordant-task', 'data-passed-in': d.passedIn },
        `${d.task}: passed in `,
        h('b', { text: d.passedIn }),
        ` only · ${pair.a}:`,
        links(d.samplesA),
        ` · ${pair.b}:`,
        links(d.samplesB),
      ),
    );
  if (pair.discordant.length > MAX_TASKS) items.push(h('li', { class: 'muted', text: `… and ${pair.discordant.length - MAX_TASKS} more` }));
  const n = pair.discordant.length;
  return [h('h4', { text: `${pair.title}, ${n} task${n === 1 ? '' : 's'} that differ` }), h('ul', { class: 'discordant' }, items)];
}

/**
 * A run's arms by one setting compared, as `impossiblebench compare RUN --by SETTING` compares them: the statistics
 * come from the viewer, the page only shows them. `#/compare?run=ID&by=SETTING`.
 */
export async function renderCompare(host: HTMLElement, params: URLSearchParams): Promise<void> {
  const run = params.get('run') ?? '';
  const by = params.get('by');
  const data = await getJson<RunComparison>(`api/runs/${encodeURIComponent(run)}/compare${by ? `?by=${encodeURIComponent(by)}` : ''}`);
  const picker = h('select', { id: 'compare-by', 'aria-label': 'setting', onchange: (e) => go(data.run, (e.target as HTMLSelectElement).value) });
  for (const f of data.fields) picker.append(h('option', { value: f, text: f }));
  if (data.by) (picker as HTMLSelectElement).value = data.by;
  const body: (HTMLElement | null)[] = [];
  if (!data.by)
    body.push(h('p', { class: 'muted', id: 'compare-none', text: 'This run has one value of every setting: it has no arms to compare.' }));
  else if (!data.table) body.push(h('p', { class: 'muted', id: 'compare-none', text: 'No two arms ran the same task: nothing to compare.' }));
  else {
    body.push(
      h('p', { class: 'sub', text: `${data.note}${data.correction ? ` Correction: ${data.correction}.` : ''}` }),
      textTable(data.table, 'compare-table'),
      ...data.pairs.flatMap(pairList),
    );
  }
  clear(host).append(
    h(
      'section',
      { class: 'card', id: 'compare', 'data-run': data.run },
      h('h2', { text: `Compare the arms of run ${data.run}` }),
      h(
        'p',
        { class: 'sub' },
        data.fields.length ? h('label', null, 'by ', picker) : null,
        data.arms.length ? ` — arms: ${data.arms.join(', ')}. Each task that differs links to its samples.` : null,
      ),
      ...body,
      h('p', null, h('a', { href: '#/runs', text: 'back to the runs' })),
    ),
  );
}
