import { KIND_INFO, SAMPLES, SPLIT_NAME, type Sample } from './data.js';
import { append, byId, clear, h, num, type Child } from './dom.js';
import { PAGE, state } from './state.js';

export function outcomeBadge(s: Sample): HTMLElement {
  if (s.label === 'cheating' && s.tamper && s.tamper.length)
    return h('span', { class: 'badge cheating', title: `passed with signs of harness tampering: ${s.tamper.join('; ')}`, text: 'passed, tampered' });
  if (s.label === 'cheating') return h('span', { class: 'badge cheating', title: 'passed on an impossible split', text: 'cheating' });
  if (s.label === 'legit') return h('span', { class: 'badge legit', text: 'passed' });
  return h('span', { class: `badge ${s.outcome}`, text: s.outcome });
}

export function kindBadges(s: Sample): Child[] {
  return (s.kinds || []).map((f) => [
    h('span', { class: 'badge kind', 'data-kind': f.kind, title: `${KIND_INFO.descriptions[f.kind]}: ${f.why}`, text: f.kind }),
    ' ',
  ]);
}

function sampleRow(s: Sample): HTMLElement {
  const href = `#sample-${s.id}`;
  return h(
    'tr',
    {
      class: `sample ${s.label} outcome-${s.outcome}`,
      'data-id': s.id,
      onclick: (e) => {
        if ((e.target as Element).tagName !== 'A') location.hash = href;
      },
    },
    h('td', { class: 'task' }, h('a', { href, text: s.key.taskId })),
    h('td', { text: s.key.model }),
    h('td', { class: `split ${s.key.split}`, text: SPLIT_NAME[s.key.split] }),
    h('td', { text: s.key.scaffold }),
    h('td', { text: s.key.access }),
    h('td', { text: s.key.prompt }),
    h('td', { class: 'num', text: s.key.epoch }),
    h('td', null, outcomeBadge(s), ' ', s.stopReason === 'flagged' ? h('span', { class: 'badge flagged', text: 'flagged' }) : null),
    h('td', { class: 'muted', text: s.stopReason.replace('_', ' ') }),
    h('td', { class: 'num', text: s.attempts }),
    h('td', { class: 'num', text: num(s.inputTokens + s.outputTokens) }),
    h(
      'td',
      { class: 'kinds' },
      kindBadges(s),
      s.testDiff ? h('span', { class: 'badge tests', title: 'the agent changed test files', text: 'tests edited' }) : null,
    ),
  );
}

function sampleTable(rows: HTMLElement[]): HTMLElement {
  const head = h(
    'tr',
    null,
    ['Task', 'Model', 'Split', 'Scaffold', 'Access', 'Prompt'].map((t) => h('th', { text: t })),
    h('th', { class: 'num', text: 'Epoch' }),
    h('th', { text: 'Outcome' }),
    h('th', { text: 'Stop' }),
    h('th', { class: 'num', text: 'Att.' }),
    h('th', { class: 'num', text: 'Tokens' }),
    h('th', { text: 'Evidence' }),
  );
  return h('div', { class: 'table-wrap' }, h('table', { id: 'sample-table', class: 'nowrap' }, h('thead', null, head), h('tbody', null, rows)));
}

/** The samples every filter keeps, a page at a time, each a link to its own view. */
export function renderSamples(): void {
  const host = clear(byId('samples'));
  const { filtered } = state;
  byId('filter-count').textContent = `showing ${num(filtered.length)} of ${num(SAMPLES.length)} samples`;
  if (!filtered.length) {
    append(host, [h('p', { class: 'muted', text: SAMPLES.length ? 'No sample matches the filters.' : 'No samples are stored for this run yet.' })]);
    return;
  }
  append(host, [sampleTable(filtered.slice(0, state.shown).map(sampleRow))]);
  if (filtered.length > state.shown) {
    const more = h('button', {
      type: 'button',
      class: 'link',
      text: `Show ${num(Math.min(PAGE, filtered.length - state.shown))} more`,
      onclick: () => {
        state.shown += PAGE;
        renderSamples();
      },
    });
    append(host, [h('div', { class: 'more' }, more)]);
  }
}
