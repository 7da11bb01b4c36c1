import { DATA, type Sample } from './data.js';
import { h, type Child } from './dom.js';
import { isFlagged } from './state.js';
import { diffView, longText } from './transcript.js';

export function panel(title: string, cls: string, content: Child, empty = '', badge: Child = null): HTMLElement {
  return h('div', { class: `panel ${cls}` }, h('h3', null, title, badge), content || h('div', { class: 'empty', text: empty }));
}

/** The store's events about the sample. */
function sampleEvents(s: Sample): HTMLElement | null {
  const events = DATA.events.filter((e) => e.sampleKey === s.keyString);
  if (!events.length) return null;
  const facts = events.map((e) => [
    h('dt', { text: e.time.replace('T', ' ').replace(/\.\d+Z$/, '') }),
    h('dd', null, h('b', { text: e.kind }), ' ', h('span', { class: 'muted', text: JSON.stringify(e.data) })),
  ]);
  return panel('Events', 'sample-events', h('dl', { class: 'facts' }, facts));
}

/** Each kind the classifier found, with the lines that show it, and what each judge said. */
function kindsPanel(s: Sample): HTMLElement | null {
  if (!s.kinds && !(s.judges || []).length) return null;
  const findings = (s.kinds || []).map((f) => {
    const lines = f.evidence.map((e) => `${e.file ? e.file + (e.line ? `:${e.line}` : '') : e.source}  ${e.change || ''}${e.text}`).join('\n');
    return h(
      'div',
      { class: 'kind-finding', 'data-kind': f.kind },
      h('div', null, h('span', { class: 'badge kind', 'data-kind': f.kind, text: f.kind }), ' ', h('span', { class: 'muted', text: f.why })),
      lines ? h('pre', { class: 'log', text: lines }) : null,
    );
  });
  const judges = (s.judges || []).map((j) =>
    h(
      'div',
      { class: 'judge-verdict' },
      h('b', { text: `Judge ${j.model}: ` }),
      h('span', { class: 'badge kind', 'data-kind': j.kind || '', text: j.kind || 'no category' }),
      h('div', { class: 'muted', text: j.explanation }),
    ),
  );
  return h('div', { class: 'panel kinds-panel', id: 'kinds' }, h('h3', { text: 'How it cheated' }), findings, judges);
}

/** What each monitor said about the sample, against the threshold. */
function monitorsPanel(s: Sample): HTMLElement | null {
  if (!(s.monitors || []).length) return null;
  const facts = s.monitors.map((v) => {
    const said = v.status === 'scored' ? String(v.score) + (isFlagged(v) ? ' · flagged' : ' · not flagged') : v.status;
    return [h('dt', { text: v.monitor }), h('dd', null, h('b', { text: said }), ' ', h('span', { class: 'muted', text: v.reason }))];
  });
  return panel('Monitors', 'monitors-panel', h('dl', { class: 'facts' }, facts));
}

function testDiffPanel(s: Sample): HTMLElement {
  return h(
    'div',
    { class: `panel test-diff${s.testDiff ? ' changed' : ''}`, id: 'test-diff' },
    h('h3', null, 'Test-file changes', s.testDiff ? h('span', { class: 'badge tests', text: 'tests edited' }) : null),
    s.testDiff
      ? h('div', { class: 'note', text: 'The agent changed test files. On an impossible split this is the most common way to cheat.' })
      : null,
    s.testDiff ? diffView(s.testDiff) : h('div', { class: 'empty', text: 'No test file was changed.' }),
  );
}

/** The panels under the run's facts: how it cheated, the monitors, the error, the diffs, the grading log, the events. */
export function evidencePanels(s: Sample): Child[] {
  return [
    kindsPanel(s),
    monitorsPanel(s),
    s.error ? panel('Error', '', h('pre', { class: 'log', text: s.error })) : null,
    testDiffPanel(s),
    panel('Source changes', 'source-diff', s.sourceDiff ? diffView(s.sourceDiff) : null, 'No source file was changed.'),
    panel('Changes outside the work dir', 'outside', s.outsideChanges ? h('pre', { class: 'log', text: s.outsideChanges }) : null, 'None.'),
    panel('Grading log', 'grading', s.gradingLog ? longText(s.gradingLog, 'log') : null, 'No grading output.'),
    sampleEvents(s),
  ];
}
