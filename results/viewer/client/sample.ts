import { clear, getJson, h, num, usd, type Child } from './dom.js';

interface Message {
  role: string;
  content: string;
  name?: string;
  toolCallId?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
}

interface Finding {
  kind: string;
  why: string;
}

interface Sample {
  id: number;
  runId: string;
  keyString: string;
  key: Record<string, string | number>;
  outcome: string;
  label: string;
  stopReason: string;
  attempts: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  wallMs: number;
  startedAt: string;
  error?: string;
  tamper: string[];
  transcript: Message[];
  sourceDiff: string;
  testDiff: string;
  outsideChanges: string;
  gradingLog: string;
  kinds: Finding[] | null;
  judges: { model: string; kind: string | null; explanation: string }[];
  monitors: { model: string; status: string; score: number | null; reason: string }[];
  events: { time: string; kind: string; data: unknown }[];
  interview: Interview | null;
}

interface Interview {
  question: string;
  answer: string;
  /** By rules; `not-asked` when the model could not be asked. */
  reading: string;
  error?: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  judge?: { model: string; reading: string | null; costUsd: number | null; error?: string };
}

/** Past this many lines a text is folded: its head shows, the whole opens on demand. */
const FOLD_LINES = 30;
const HEAD_LINES = 12;

function folded(text: string, cls: string): Child {
  const lines = text.split('\n');
  if (lines.length <= FOLD_LINES && text.length <= 6000) return h('pre', { class: cls, text });
  return [
    h('pre', { class: cls, text: `${lines.slice(0, HEAD_LINES).join('\n').slice(0, 3000)}\n…` }),
    h(
      'details',
      { class: 'fold' },
      h('summary', { text: `show all ${num(lines.length)} lines (${num(text.length)} characters)` }),
      h('pre', { class: cls, text }),
    ),
  ];
}

/**
 * A tool call as its fields, each string with its real line breaks and long ones folded: an agent program's
 * `{"cmd": "cat > f <<EOF\n..."}` reads as the command it is. Arguments that are not a JSON object show as sent.
 */
function toolCall(c: NonNullable<Message['toolCalls']>[number]): HTMLElement {
  let fields: [string, unknown][] | undefined;
  try {
    const parsed: unknown = JSON.parse(c.arguments);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fields = Object.entries(parsed);
  } catch {
    fields = undefined;
  }
  const args = fields
    ? fields.map(([k, v]) => [h('div', { class: 'arg', text: k }), folded(typeof v === 'string' ? v : JSON.stringify(v, null, 2), 'call')])
    : folded(c.arguments, 'call');
  return h('div', { class: 'toolcall' }, h('div', { class: 'tc-head', text: `→ ${c.name}  (${c.id})` }), args);
}

function message(m: Message, i: number): HTMLElement {
  const answers = m.toolCallId ? ` ← ${m.toolCallId}` : '';
  return h(
    'div',
    { class: `msg ${m.role}` },
    h('div', { class: 'head' }, m.role, m.name ? ` · ${m.name}` : '', answers, h('span', { class: 'idx', text: `#${i}` })),
    m.content ? h('div', { class: 'body' }, folded(m.content, 'text')) : null,
    (m.toolCalls ?? []).map(toolCall),
  );
}

function diffView(text: string): HTMLElement {
  const pre = h('pre', { class: 'diff' });
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const cls =
      line.startsWith('diff --git') || line.startsWith('+++') || line.startsWith('---')
        ? 'd-file'
        : line.startsWith('@@')
          ? 'd-hunk'
          : line.startsWith('+')
            ? 'd-add'
            : line.startsWith('-')
              ? 'd-del'
              : '';
    pre.append(h('span', { class: cls, text: line }));
  }
  return pre;
}

function panel(title: string, id: string, body: Child, empty: string): HTMLElement {
  return h('div', { class: 'panel', id }, h('h3', { text: title }), body || h('div', { class: 'empty', text: empty }));
}

function verdicts(s: Sample): HTMLElement {
  const items = [
    ...(s.kinds ?? []).map((k) => `classifier: ${k.kind}: ${k.why}`),
    ...s.judges.map((j) => `judge ${j.model}: ${j.kind ?? 'no kind'}: ${j.explanation}`),
    ...s.monitors.map((m) => `monitor ${m.model}: ${m.status}${m.score === null ? '' : ` ${m.score}`}: ${m.reason}`),
  ];
  return panel(
    'Kinds, judges and monitors',
    'verdicts',
    items.length
      ? h(
          'ul',
          null,
          items.map((t) => h('li', { text: t })),
        )
      : null,
    'No kind found and no verdict stored.',
  );
}

/** What the agent said when asked once graded: the question, the answer, its reading by rules, its cost, and a judge's reading apart. */
function interviewPanel(i: Interview): HTMLElement {
  const facts: [id: string, term: string, text: string][] = [
    ['interview-reading', 'reading (rules)', i.reading === 'not-asked' ? `not asked: ${i.error ?? ''}` : i.reading],
    ['interview-cost', 'cost', `${usd(i.costUsd)} · ${num(i.inputTokens)} in · ${num(i.outputTokens)} out`],
  ];
  const judge = i.judge;
  if (judge) {
    const said = judge.error ? `could not answer: ${judge.error}` : (judge.reading ?? 'named no reading');
    facts.push(['interview-judge', `judge ${judge.model}`, `${said} · ${usd(judge.costUsd)}`]);
  }
  return panel(
    'Interview',
    'interview',
    [
      h(
        'dl',
        { class: 'facts' },
        facts.map(([id, term, text]) => [h('dt', { text: term }), h('dd', { id, text })]),
      ),
      h('div', { class: 'arg', text: 'question' }),
      h('div', { id: 'interview-question' }, folded(i.question, 'text')),
      h('div', { class: 'arg', text: 'answer' }),
      h('div', { id: 'interview-answer' }, i.answer ? folded(i.answer, 'text') : h('div', { class: 'empty', text: 'No answer.' })),
    ],
    '',
  );
}

/** One sample: its transcript with long outputs folded, its three diffs, grading log, tamper signs and verdicts. */
export async function renderSample(host: HTMLElement, id: string): Promise<void> {
  const s = await getJson<Sample>(`api/samples/${encodeURIComponent(id)}`);
  const facts: [string, string][] = [
    ['run', s.runId],
    ...Object.entries(s.key).map(([k, v]): [string, string] => [k, String(v)]),
    ['outcome', s.outcome],
    ['label', s.label],
    ['stop reason', s.stopReason],
    ['attempts', String(s.attempts)],
    ['tokens', `${num(s.inputTokens)} in · ${num(s.outputTokens)} out`],
    ['cost', usd(s.costUsd)],
    ['started', s.startedAt],
  ];
  clear(host).append(
    h(
      'div',
      { class: 'crumbs' },
      h('a', { href: '#/samples', id: 'back', text: '← Samples' }),
      h('span', { class: 'muted', text: ` sample ${s.id} · ${s.keyString}` }),
    ),
    h(
      'div',
      { class: `banner ${s.label === 'none' ? s.outcome : s.label}`, id: 'sample-banner' },
      h('h2', { text: String(s.key.taskId) }),
      h('span', { class: `badge ${s.outcome}`, text: s.outcome }),
    ),
    h(
      'div',
      { class: 'sample-grid' },
      h('div', { id: 'transcript' }, h('h3', { text: `Transcript · ${s.transcript.length} messages` }), s.transcript.map(message)),
      h(
        'div',
        { id: 'evidence' },
        panel(
          'Run',
          'facts',
          h(
            'dl',
            { class: 'facts' },
            facts.map(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]),
          ),
          '',
        ),
        panel(
          'Signs of tampering',
          'tamper',
          s.tamper.length
            ? h(
                'ul',
                null,
                s.tamper.map((t) => h('li', { text: t })),
              )
            : null,
          'None.',
        ),
        verdicts(s),
        s.interview ? interviewPanel(s.interview) : null,
        s.error ? panel('Error', 'error', h('pre', { class: 'log', text: s.error }), '') : null,
        panel('Test-file changes', 'test-diff', s.testDiff ? diffView(s.testDiff) : null, 'No test file was changed.'),
        panel('Source changes', 'source-diff', s.sourceDiff ? diffView(s.sourceDiff) : null, 'No source file was changed.'),
        panel('Changes outside the work dir', 'outside', s.outsideChanges ? h('pre', { class: 'log', text: s.outsideChanges }) : null, 'None.'),
        panel('Grading log', 'grading', s.gradingLog ? folded(s.gradingLog, 'log') : null, 'No grading output.'),
        panel(
          'Events',
          'events',
          s.events.length
            ? h(
                'ul',
                null,
                s.events.map((e) => h('li', { text: `${e.time} ${e.kind} ${JSON.stringify(e.data)}` })),
              )
            : null,
          'None.',
        ),
      ),
    ),
  );
}
