import type { TranscriptMessage } from '../../core/record.js';
import type { ProxyExchange } from './proxy.js';
import type { AgentApi } from './replies.js';
import { itemKey, type RequestView, readReplyItems, readRequest } from './transcript-items.js';

/** The `name`s the transcript gives what is not a plain turn of the main conversation. */
export const TRANSCRIPT_NAMES = {
  side: 'side request',
  failed: 'request failed',
  newConversation: 'new conversation',
} as const;

type Place = 'main' | 'new-section' | 'side';

interface Section {
  last: RequestView;
  /** Keys of the last reply's messages: the next request resends them, and they are not shown twice. */
  resent: Map<string, number>;
}

/**
 * An agent program's model traffic as the sample's transcript. Programs resend the whole conversation with every
 * request, so each request shows only what is new in it (the last turn's tool results, a new user message), then
 * its reply: text, reasoning summaries and tool calls with their arguments as sent. The system prompt shows once (and
 * again only when it changes). A failed request shows as a note; a side request (another model, or one that does not
 * continue the conversation while the next one does) is marked; a request that starts over (compaction) opens a new
 * section.
 */
export function exchangesToTranscript(api: AgentApi, exchanges: readonly ProxyExchange[]): TranscriptMessage[] {
  const views = exchanges.map((e) => readRequest(api, e.request));
  const mainModel = mainModelOf(views);
  const out: TranscriptMessage[] = [];
  let section: Section | undefined;
  let shownSystem: string | undefined;
  for (const [i, exchange] of exchanges.entries()) {
    const view = views[i]!;
    const place = placeOf(views, i, mainModel, section);
    if (place === 'side') {
      out.push(...sideRequest(api, exchange, view));
      continue;
    }
    let fresh: TranscriptMessage[];
    if (place === 'new-section') {
      if (section) out.push({ role: 'system', name: TRANSCRIPT_NAMES.newConversation, content: NEW_CONVERSATION });
      fresh = view.items;
    } else fresh = newItems(view, section!);
    if (view.system !== undefined && view.system !== shownSystem) {
      out.push({ role: 'system', content: view.system });
      shownSystem = view.system;
    }
    out.push(...fresh);
    const reply = exchange.status >= 400 ? [] : readReplyItems(api, exchange.reply);
    out.push(...(exchange.status >= 400 ? [failureNote(exchange)] : reply));
    section = { last: view, resent: countKeys(reply) };
  }
  return out;
}

const NEW_CONVERSATION =
  'The agent program started a new conversation here (a compaction or a restart): the requests below do not continue the ones above.';

/** The model of the main thread: the one most requests with tools name (side calls mostly offer none). */
function mainModelOf(views: readonly RequestView[]): string | undefined {
  const withTools = views.filter((v) => v.hasTools);
  const counts = new Map<string, number>();
  for (const v of withTools.length ? withTools : views) counts.set(v.model, (counts.get(v.model) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function placeOf(views: readonly RequestView[], i: number, mainModel: string | undefined, section: Section | undefined): Place {
  const view = views[i]!;
  if (view.model !== mainModel) return 'side';
  if (!section) return 'new-section';
  if (continues(view, section.last)) return 'main';
  // A detour is a side request when the main thread picks up again after it; otherwise the program started over.
  const next = views.slice(i + 1).find((v) => v.model === mainModel);
  if (next) return continues(next, section.last) ? 'side' : 'new-section';
  return view.hasTools ? 'new-section' : 'side';
}

function commonPrefix(a: readonly TranscriptMessage[], b: readonly TranscriptMessage[]): number {
  let n = 0;
  while (n < a.length && n < b.length && itemKey(a[n]!) === itemKey(b[n]!)) n++;
  return n;
}

/**
 * Whether a request continues the previous one: it resends all of it, or (a program that trims or rewrites older
 * turns) keeps the same system prompt and at least the first user message.
 */
function continues(view: RequestView, last: RequestView): boolean {
  const shared = commonPrefix(view.items, last.items);
  if (shared === last.items.length) return true;
  const firstUser = last.items.findIndex((m) => m.role === 'user');
  return view.system === last.system && firstUser >= 0 && shared > firstUser;
}

/** What a request adds to the conversation: past the part it shares with the last one, less the reply it resends. */
function newItems(view: RequestView, section: Section): TranscriptMessage[] {
  const resent = new Map(section.resent);
  return view.items.slice(commonPrefix(view.items, section.last.items)).filter((m) => {
    const key = itemKey(m);
    const left = resent.get(key) ?? 0;
    if (left > 0) resent.set(key, left - 1);
    return left === 0;
  });
}

function countKeys(items: readonly TranscriptMessage[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of items) counts.set(itemKey(m), (counts.get(itemKey(m)) ?? 0) + 1);
  return counts;
}

/** A side request in two messages: what it asked (its last message) and what came back, both marked. */
function sideRequest(api: AgentApi, exchange: ProxyExchange, view: RequestView): TranscriptMessage[] {
  const asked = view.items.at(-1)?.content ?? '';
  const name = TRANSCRIPT_NAMES.side;
  const request: TranscriptMessage = { role: 'user', name, content: `[${view.model || 'unnamed model'}] ${asked}` };
  if (exchange.status >= 400) return [request, { ...failureNote(exchange), name: `${name}: ${TRANSCRIPT_NAMES.failed}` }];
  const reply = readReplyItems(api, exchange.reply).map((m) => ({ ...m, name: m.name ? `${name}: ${m.name}` : name }));
  return [request, ...reply];
}

function failureNote(exchange: ProxyExchange): TranscriptMessage {
  const error = exchange.reply.error;
  const message =
    error && typeof error === 'object' && 'message' in error
      ? String(error.message)
      : typeof exchange.reply.body === 'string'
        ? exchange.reply.body
        : JSON.stringify(exchange.reply);
  return { role: 'assistant', name: TRANSCRIPT_NAMES.failed, content: `HTTP ${exchange.status} on ${exchange.path}: ${message}` };
}
