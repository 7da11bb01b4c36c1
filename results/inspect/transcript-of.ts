import type { TranscriptMessage } from '../../core/record.js';
import { NOT_AN_OBJECT, REDACTED_REASONING } from './messages.js';
import type { ReadMessage } from './read.js';

/**
 * Inspect's chat messages read back as our transcript: the inverse of `toInspectMessages`, and lenient with what
 * other writers put in a log. Reasoning content becomes the `reasoning` turns before its answer, a tool error marks
 * its result `error`, and content we have no text for (an image, audio) is named in brackets rather than dropped.
 */

type Content = ReadMessage['content'];
type Part = Exclude<Content, string>[number];

function partText(p: Part): string {
  if (p.type === 'text') return p.text ?? '';
  return `[${p.type}]`;
}

const textOf = (content: Content): string =>
  typeof content === 'string'
    ? content
    : content
        .filter((p) => p.type !== 'reasoning')
        .map(partText)
        .join('\n\n');

const reasoningTurns = (content: Content): TranscriptMessage[] =>
  typeof content === 'string'
    ? []
    : content
        .filter((p) => p.type === 'reasoning')
        .map((p) => ({ role: 'assistant', name: 'reasoning', content: p.redacted ? REDACTED_REASONING : (p.reasoning ?? '') }));

const metaName = (m: ReadMessage): { name?: string } | undefined => {
  const meta = (m as { metadata?: Record<string, unknown> | null }).metadata;
  if (!meta || !('name' in meta)) return undefined;
  return typeof meta.name === 'string' ? { name: meta.name } : {};
};

function argumentsText(call: { id: string; arguments: Record<string, unknown>; parse_error?: string | null }, raw: Record<string, unknown>): string {
  if (call.parse_error?.startsWith(NOT_AN_OBJECT)) return call.parse_error.slice(NOT_AN_OBJECT.length);
  const kept = raw[call.id];
  return typeof kept === 'string' ? kept : JSON.stringify(call.arguments);
}

export function fromInspectMessages(messages: readonly ReadMessage[]): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') {
      const reasoning = reasoningTurns(m.content);
      out.push(...reasoning);
      const hasText = typeof m.content === 'string' || m.content.some((p) => p.type !== 'reasoning');
      // A turn of reasoning alone was written as one: it reads back as the reasoning only.
      if (!hasText && reasoning.length && !m.tool_calls?.length) continue;
      const meta = ((m as { metadata?: Record<string, unknown> | null }).metadata ?? {}) as Record<string, unknown>;
      const raw = (meta.raw_arguments ?? {}) as Record<string, unknown>;
      const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function, arguments: argumentsText(c, raw) }));
      out.push({ role: 'assistant', content: textOf(m.content), ...(calls.length ? { toolCalls: calls } : {}), ...metaName(m) });
    } else if (m.role === 'tool') {
      const kept = metaName(m);
      const name = kept ?? (m.error ? { name: 'error' } : m.function ? { name: m.function } : {});
      out.push({ role: 'tool', content: textOf(m.content), ...(m.tool_call_id ? { toolCallId: m.tool_call_id } : {}), ...name });
    } else out.push({ role: m.role, content: textOf(m.content), ...metaName(m) });
  }
  return out;
}
