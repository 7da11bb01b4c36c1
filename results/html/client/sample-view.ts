import { BY_ID, SPLIT_NAME, type Sample } from './data.js';
import { append, byId, clear, h, num, secs, usd } from './dom.js';
import { kindBadges, outcomeBadge } from './samples.js';
import { evidencePanels, panel } from './sample-panels.js';
import { state } from './state.js';
import { message } from './transcript.js';

const VERDICT: Record<string, string> = {
  cheating: 'Cheating: passed tests that contradict the spec',
  legit: 'Passed the original tests',
  failed: 'Did not pass',
  evaded: 'Evaded: reported success but the tests never ran to their end',
  error: 'Infrastructure or API error: left out of every rate',
};

/** Back to the overview, and the previous and next of the samples the filters keep. */
function crumbs(s: Sample): HTMLElement {
  const { filtered } = state;
  const pos = filtered.indexOf(s);
  const prev = pos > 0 ? filtered[pos - 1] : null;
  const next = pos >= 0 && pos < filtered.length - 1 ? filtered[pos + 1] : null;
  return h(
    'div',
    { class: 'crumbs' },
    h('a', { href: '#', id: 'back', text: '← All samples' }),
    h('span', { class: 'spacer' }),
    prev ? h('a', { href: `#sample-${prev.id}`, text: '‹ previous' }) : null,
    pos >= 0 ? h('span', { class: 'muted', text: `${pos + 1} of ${filtered.length}` }) : null,
    next ? h('a', { href: `#sample-${next.id}`, text: 'next ›' }) : null,
  );
}

function banner(s: Sample, kind: string): HTMLElement {
  const k = s.key;
  const chips: [string, string | number][] = [
    ['model', k.model],
    ['dataset', k.dataset],
    ['split', SPLIT_NAME[k.split]],
    ['scaffold', k.scaffold],
    ['access', k.access],
    ['prompt', k.prompt],
    ['max attempts', k.maxAttempts],
    ['epoch', k.epoch],
  ];
  return h(
    'div',
    { class: `banner ${kind}`, id: 'sample-banner' },
    h('h2', { text: k.taskId }),
    outcomeBadge(s),
    s.stopReason === 'flagged' ? h('span', { class: 'badge flagged', text: 'flagged for a human' }) : null,
    kindBadges(s),
    h('span', { class: 'verdict', text: VERDICT[kind] || '' }),
    h(
      'div',
      { class: 'chips' },
      chips.map((p) => h('span', { class: 'chip' }, h('b', { text: p[0] }), String(p[1]))),
    ),
  );
}

/** What the sample ran and spent. */
function runFacts(s: Sample): HTMLElement {
  const cached = s.cacheReadTokens ? ` (${num(s.cacheReadTokens)} from cache)` : '';
  const facts: ([string, string] | null)[] = [
    ['outcome', s.outcome],
    ['stop reason', s.stopReason.replace('_', ' ')],
    ['attempts', `${s.attempts} of ${s.key.maxAttempts}`],
    ['tokens', `${num(s.inputTokens)} in${cached} · ${num(s.outputTokens)} out`],
    ['cost', `${usd(s.costUsd, true)}${s.costUsd ? ' billed, cache prices applied' : ''}`],
    ['wall time', secs(s.wallMs)],
    ['started', s.startedAt],
    s.errorCount ? ['infra errors', String(s.errorCount) + (s.outcome === 'error' ? '' : ' before this result')] : null,
  ];
  return panel(
    'Run',
    '',
    h(
      'dl',
      { class: 'facts' },
      facts.filter((p) => p !== null).map((p) => [h('dt', { text: p[0] }), h('dd', { text: p[1] })]),
    ),
  );
}

/** One sample: its verdict, its transcript, and beside it the evidence. */
export function renderSample(id: number): void {
  const s = BY_ID[id];
  const host = clear(byId('sample-view'));
  if (!s) {
    append(host, [h('p', null, `No sample ${id} in this report. `, h('a', { href: '#', text: 'Back to the overview' }))]);
    return;
  }
  const kind = s.label === 'cheating' ? 'cheating' : s.label === 'legit' ? 'legit' : s.outcome;
  const transcript = h(
    'div',
    { id: 'transcript' },
    h('h3', { style: 'margin:0 0 10px;font-size:15px', text: `Transcript · ${s.transcript.length} messages` }),
    s.transcript.length ? s.transcript.map(message) : h('p', { class: 'muted', text: 'No messages were recorded.' }),
  );
  append(host, [
    crumbs(s),
    banner(s, kind),
    h('div', { class: 'sample-grid' }, transcript, h('div', { id: 'evidence' }, runFacts(s), evidencePanels(s))),
  ]);
}
