import type { Sample } from './data.js';
import { append, h, num, type Child } from './dom.js';

type Message = Sample['transcript'][number];

const LONG_LINES = 60;
const KEEP_LINES = 40;

/** Text in a `pre`, folded to its first lines when long, with a button that shows it all. */
export function longText(text: string, cls: string): HTMLElement[] {
  const lines = text.split('\n');
  if (lines.length <= LONG_LINES && text.length <= 8000) return [h('pre', { class: cls, text })];
  const pre = h('pre', { class: cls, text: `${lines.slice(0, KEEP_LINES).join('\n').slice(0, 6000)}\n…` });
  const btn = h('button', {
    type: 'button',
    class: 'link',
    text: `Show all ${num(lines.length)} lines`,
    onclick: () => {
      pre.textContent = text;
      btn.remove();
    },
  });
  return [pre, h('div', { class: 'expand' }, btn)];
}

/** Tool arguments as their fields, strings shown with their real line breaks (code stays readable). */
function toolArgs(args: string): Child[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return longText(args, '');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return longText(JSON.stringify(parsed, null, 2), '');
  const fields = parsed as Record<string, unknown>;
  const keys = Object.keys(fields);
  if (!keys.length) return [h('pre', { class: 'muted', text: '(no arguments)' })];
  return keys.map((k) => {
    const v = fields[k];
    return [h('div', { class: 'arg', text: k }), longText(typeof v === 'string' ? v : JSON.stringify(v, null, 2), '')];
  });
}

/** One message of the transcript, with its tool calls. */
export function message(m: Message, i: number): HTMLElement {
  const extra = m.role === 'tool' ? (m.name ? m.name : '') + (m.toolCallId ? `  ← ${m.toolCallId}` : '') : m.name || '';
  return h(
    'div',
    { class: `msg ${m.role}` },
    h(
      'div',
      { class: 'head' },
      h('span', { text: m.role }),
      extra ? h('span', { class: 'muted', style: 'text-transform:none;font-weight:500', text: extra }) : null,
      h('span', { class: 'idx', text: `#${i + 1}` }),
    ),
    m.content ? h('div', { class: 'body' }, longText(m.content, '')) : null,
    (m.toolCalls || []).map((tc) =>
      h('div', { class: 'toolcall' }, h('div', { class: 'tc-head', text: `→ ${tc.name}  (${tc.id})` }), toolArgs(tc.arguments)),
    ),
  );
}

const FILE_LINE = /^(diff |index |--- |\+\+\+ |new file|deleted file|similarity|rename |old mode|new mode)/;

/** A unified diff, each line classed by what it is. */
export function diffView(text: string): HTMLElement {
  const pre = h('pre', { class: 'diff' });
  for (const line of text.replace(/\n$/, '').split('\n')) {
    let cls = 'd-ctx';
    if (FILE_LINE.test(line)) cls = 'd-file';
    else if (line.charAt(0) === '@' && line.charAt(1) === '@') cls = 'd-hunk';
    else if (line.charAt(0) === '+') cls = 'd-add';
    else if (line.charAt(0) === '-') cls = 'd-del';
    append(pre, [h('span', { class: cls, text: line })]);
  }
  return pre;
}
