import type { TranscriptMessage } from '../../core/record.js';

/**
 * Our transcript in Inspect's chat message shapes, and the conventions the two share: a message our agent-program
 * readers mark `reasoning` becomes reasoning content of the assistant turn it precedes, a tool result marked `error`
 * gets a tool error, and any other name is kept in the message's metadata.
 */

/** What the transcript writes for reasoning a provider gave back only encrypted. */
export const REDACTED_REASONING = '[redacted thinking]';

export type InspectContent = { type: 'text'; text: string } | { type: 'reasoning'; reasoning: string; redacted: boolean };

export interface InspectToolCall {
  id: string;
  function: string;
  arguments: Record<string, unknown>;
  type: 'function';
  parse_error?: string;
}

export type InspectMessage =
  | { id: string; role: 'system'; content: string; metadata?: Record<string, unknown> }
  | { id: string; role: 'user'; content: string; source?: 'input'; metadata?: Record<string, unknown> }
  | {
      id: string;
      role: 'assistant';
      content: string | InspectContent[];
      source: 'generate';
      model: string;
      tool_calls?: InspectToolCall[];
      metadata?: Record<string, unknown>;
    }
  | {
      id: string;
      role: 'tool';
      content: string;
      tool_call_id: string;
      function: string;
      error?: { type: 'unknown'; message: string };
      metadata?: Record<string, unknown>;
    };

/** The prefix of `parse_error` under which the argument text that was no JSON object is kept. */
export const NOT_AN_OBJECT = 'arguments are not a JSON object: ';

/** A call's arguments as Inspect keeps them: a JSON object, else none, with the text as it came in `parse_error`. */
export function toolCallOf(call: NonNullable<TranscriptMessage['toolCalls']>[number]): InspectToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    parsed = undefined;
  }
  const isObject = !!parsed && typeof parsed === 'object' && !Array.isArray(parsed);
  return {
    id: call.id,
    function: call.name,
    arguments: isObject ? (parsed as Record<string, unknown>) : {},
    type: 'function',
    ...(isObject ? {} : { parse_error: `${NOT_AN_OBJECT}${call.arguments}` }),
  };
}

/**
 * Argument texts that are JSON objects but not as `JSON.stringify` would write them (spacing, key order), by call id:
 * Inspect keeps arguments as objects, so the text is kept beside them for the transcript to read back the same.
 */
function rawArguments(calls: NonNullable<TranscriptMessage['toolCalls']>, mapped: InspectToolCall[]): Record<string, string> | undefined {
  const raw = Object.fromEntries(
    calls.filter((c, i) => !mapped[i]!.parse_error && JSON.stringify(mapped[i]!.arguments) !== c.arguments).map((c) => [c.id, c.arguments]),
  );
  return Object.keys(raw).length ? raw : undefined;
}

function reasoningOf(m: TranscriptMessage): InspectContent {
  return m.content === REDACTED_REASONING
    ? { type: 'reasoning', reasoning: '', redacted: true }
    : { type: 'reasoning', reasoning: m.content, redacted: false };
}

/**
 * The messages of a transcript in Inspect's shapes. `idPrefix` makes message ids unique within a log; `model` is the
 * model that wrote the assistant turns.
 */
export function toInspectMessages(transcript: readonly TranscriptMessage[], model: string, idPrefix: string): InspectMessage[] {
  const out: InspectMessage[] = [];
  const callNames = new Map<string, string>();
  let reasoning: InspectContent[] = [];
  let seenUser = false;
  transcript.forEach((m, i) => {
    const id = `${idPrefix}-${i}`;
    const named = m.name !== undefined ? { metadata: { name: m.name } } : {};
    if (m.role === 'assistant' && m.name === 'reasoning') {
      reasoning.push(reasoningOf(m));
      // Reasoning with no answer after it still shows, as a turn of its own.
      const next = transcript[i + 1];
      if (next?.role === 'assistant') return;
      out.push({ id, role: 'assistant', content: reasoning, source: 'generate', model });
      reasoning = [];
      return;
    }
    if (m.role === 'assistant') {
      const content: InspectMessage['content'] = reasoning.length ? [...reasoning, { type: 'text', text: m.content }] : m.content;
      reasoning = [];
      for (const c of m.toolCalls ?? []) callNames.set(c.id, c.name);
      const calls = (m.toolCalls ?? []).map(toolCallOf);
      const raw = rawArguments(m.toolCalls ?? [], calls);
      const metadata = { ...(m.name !== undefined ? { name: m.name } : {}), ...(raw ? { raw_arguments: raw } : {}) };
      out.push({
        id,
        role: 'assistant',
        content,
        source: 'generate',
        model,
        ...(calls.length ? { tool_calls: calls } : {}),
        ...(Object.keys(metadata).length ? { metadata } : {}),
      });
    } else if (m.role === 'tool') {
      const isError = m.name === 'error';
      const fn = callNames.get(m.toolCallId ?? '') ?? (isError ? '' : (m.name ?? ''));
      // A name the reading back would not restore from the function and the error is kept, so transcripts round-trip.
      const keptName = m.name !== (isError ? 'error' : fn || undefined) ? { metadata: { name: m.name ?? null } } : {};
      out.push({
        id,
        role: 'tool',
        content: m.content,
        tool_call_id: m.toolCallId ?? '',
        function: fn,
        ...(isError ? { error: { type: 'unknown', message: m.content } } : {}),
        ...keptName,
      });
    } else if (m.role === 'user') {
      out.push({ id, role: 'user', content: m.content, ...(seenUser ? {} : { source: 'input' as const }), ...named });
      seenUser = true;
    } else out.push({ id, role: 'system', content: m.content, ...named });
  });
  return out;
}

/** The text of a message's content, reasoning left out. */
export function messageText(content: string | InspectContent[]): string {
  if (typeof content === 'string') return content;
  return content
    .filter((c): c is Extract<InspectContent, { type: 'text' }> => c.type === 'text')
    .map((c) => c.text)
    .join('\n\n');
}
