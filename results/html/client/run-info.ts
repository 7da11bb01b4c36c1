import { DATA, type StoredEvent } from './data.js';
import { append, byId, h, num } from './dom.js';

function eventRow(e: StoredEvent): HTMLElement {
  let key: unknown = null;
  try {
    key = e.sampleKey ? JSON.parse(e.sampleKey) : null;
  } catch {
    key = null;
  }
  const data = e.data && typeof e.data === 'object' && Object.keys(e.data).length === 0 ? '' : JSON.stringify(e.data);
  return h(
    'tr',
    null,
    h('td', { class: 'muted', text: e.time.replace('T', ' ').replace(/\.\d+Z$/, '') }),
    h('td', null, h('b', { text: e.kind })),
    h('td', { text: Array.isArray(key) ? key.join(' · ') : e.sampleKey || '' }),
    h('td', { class: 'data', text: data }),
  );
}

/** The run's config and its events, the latest of them when the page leaves some out. */
export function renderRunInfo(): void {
  append(byId('run-config'), [h('pre', { class: 'config', text: JSON.stringify(DATA.run.config, null, 2) })]);
  const host = byId('run-events');
  const events = DATA.events;
  if (!events.length) {
    append(host, [h('p', { class: 'muted', text: 'No events were recorded.' })]);
    return;
  }
  const omitted = DATA.eventsOmitted
    ? h('p', { class: 'muted', text: `The first ${num(DATA.eventsOmitted)} events are left out; the latest ${num(events.length)} follow.` })
    : null;
  const head = h('tr', null, h('th', { text: 'Time' }), h('th', { text: 'Event' }), h('th', { text: 'Sample' }), h('th', { text: 'Data' }));
  append(host, [
    omitted,
    h('div', { class: 'table-wrap' }, h('table', { class: 'events' }, h('thead', null, head), h('tbody', null, events.map(eventRow)))),
  ]);
}
