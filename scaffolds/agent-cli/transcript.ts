import type { TranscriptMessage } from '../../core/record.js';
import { exchangeFailed, type ProxyExchange } from './proxy.js';
import type { AgentApi } from './replies.js';
import { itemKey, type RequestView, readReplyItems, readRequest } from './transcript-items.js';

/** The `name`s the transcript gives what is not a plain turn of the main conversation. */
export const TRANSCRIPT_NAMES = {
  side: 'side request',
  failed: 'request failed',
  newConversation: 'new conversation',
} as const;

/**
 * A request's conversation without its reasoning, keyed: what decides whether one request continues another (a
 * program may drop old reasoning when it resends a conversation; that is no new conversation).
 */
interface Spine {
  keys: string[];
  /** Where each key's message is in the request's items. */
  at: number[];
}

interface Request extends RequestView {
  spine: Spine;
}

interface Section {
  last: Request;
  /** Keys of the last reply's messages: the next request resends them, and they are not shown twice. */
  resent: Map<string, number>;
}

/** How a request relates to the main conversation. */
type Place = 'continues' | 'rewrites' | 'starts-over' | 'side';

/**
 * An agent program's model traffic as the sample's transcript. Programs resend the whole conversation with every
 * request, so each request shows only what is new in it (the last turn's tool results, a new user message), then
 * its reply: text, reasoning summaries and tool calls with their arguments as sent. The system prompt shows once (and
 * again only when it changes). A failed request shows as a note; a side request (another model, or a detour the main
 * conversation later resumes after) is marked; a request that starts over or rewrites the history (compaction) opens
 * a new section after a note.
 */
export function exchangesToTranscript(api: AgentApi, exchanges: readonly ProxyExchange[]): TranscriptMessage[] {
  const requests = exchanges.map((e): Request => {
    const view = readRequest(api, e.request);
    return { ...view, spine: spineOf(view.items) };
  });
  const mainModel = mainModelOf(requests);
  const out: TranscriptMessage[] = [];
  let section: Section | undefined;
  let shownSystem: string | undefined;
  for (const [i, exchange] of exchanges.entries()) {
    const request = requests[i]!;
    const place = placeOf(requests, i, mainModel, section?.last);
    if (place === 'side') {
      out.push(...sideRequest(api, exchange, request));
      continue;
    }
    if (section && place !== 'continues') out.push(newConversationNote(place, request, section.last));
    if (request.system !== undefined && request.system !== shownSystem) {
      out.push({ role: 'system', content: request.system });
      shownSystem = request.system;
    }
    out.push(...(section && place !== 'starts-over' ? newItems(request, section) : request.items));
    const failed = exchangeFailed(exchange);
    const reply = failed ? [] : readReplyItems(api, exchange.reply);
    out.push(...(failed ? [failureNote(exchange)] : reply));
    section = { last: request, resent: countKeys(reply) };
  }
  return out;
}

function spineOf(items: readonly TranscriptMessage[]): Spine {
  const spine: Spine = { keys: [], at: [] };
  for (const [i, m] of items.entries()) {
    if (m.role === 'assistant' && m.name === 'reasoning') continue;
    spine.keys.push(itemKey(m));
    spine.at.push(i);
  }
  return spine;
}

/** The model of the main thread: the one most requests with tools name (side calls mostly offer none). */
function mainModelOf(requests: readonly Request[]): string | undefined {
  const withTools = requests.filter((r) => r.hasTools);
  const counts = new Map<string, number>();
  for (const r of withTools.length ? withTools : requests) counts.set(r.model, (counts.get(r.model) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function placeOf(requests: readonly Request[], i: number, mainModel: string | undefined, last: Request | undefined): Place {
  const request = requests[i]!;
  if (request.model !== mainModel) return 'side';
  if (!last) return 'starts-over';
  const relation = relationTo(request, last);
  if (relation !== 'unrelated') return relation;
  // A detour is a side request when the main conversation is resumed after it (a sub-agent, a one-off question);
  // otherwise the program started over.
  const resumed = requests.slice(i + 1).some((r) => r.model === mainModel && relationTo(r, last) === 'continues');
  return resumed ? 'side' : 'starts-over';
}

/** How many leading messages (reasoning aside) two requests share. */
function shared(a: Spine, b: Spine): number {
  let n = 0;
  while (n < a.keys.length && n < b.keys.length && a.keys[n] === b.keys[n]) n++;
  return n;
}

/**
 * A request continues the last one when it resends all of it; it rewrites it (a compaction that keeps the opening)
 * when it keeps the same system prompt and at least the first user message but drops or changes later ones.
 */
function relationTo(request: Request, last: Request): 'continues' | 'rewrites' | 'unrelated' {
  const n = shared(request.spine, last.spine);
  if (n === last.spine.keys.length) return 'continues';
  const firstUser = last.spine.keys.findIndex((_, k) => last.items[last.spine.at[k]!]!.role === 'user');
  return request.system === last.system && firstUser >= 0 && n > firstUser ? 'rewrites' : 'unrelated';
}

/** What a request adds to the conversation: past the part it shares with the last one, less the reply it resends. */
function newItems(request: Request, section: Section): TranscriptMessage[] {
  const n = shared(request.spine, section.last.spine);
  const from = n === 0 ? 0 : request.spine.at[n - 1]! + 1;
  const resent = new Map(section.resent);
  return request.items.slice(from).filter((m) => {
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

function newConversationNote(place: Place, request: Request, last: Request): TranscriptMessage {
  const kept = shared(request.spine, last.spine);
  const content =
    place === 'rewrites'
      ? `The agent program rewrote its conversation here (a compaction): it kept the first ${kept} of ${last.spine.keys.length} messages; what it sent in place of the rest follows.`
      : 'The agent program started a new conversation here (a compaction or a restart): the requests below do not continue the ones above.';
  return { role: 'system', name: TRANSCRIPT_NAMES.newConversation, content };
}

/** A side request in two messages: what it asked (its last message) and what came back, both marked. */
function sideRequest(api: AgentApi, exchange: ProxyExchange, request: Request): TranscriptMessage[] {
  const asked = request.items.at(-1)?.content ?? '';
  const name = TRANSCRIPT_NAMES.side;
  const question: TranscriptMessage = { role: 'user', name, content: `[${request.model || 'unnamed model'}] ${asked}` };
  if (exchangeFailed(exchange)) return [question, { ...failureNote(exchange), name: `${name}: ${TRANSCRIPT_NAMES.failed}` }];
  const reply = readReplyItems(api, exchange.reply).map((m) => ({ ...m, name: m.name ? `${name}: ${m.name}` : name }));
  return [question, ...reply];
}

function failureNote(exchange: ProxyExchange): TranscriptMessage {
  const error = exchange.reply.error;
  const body = exchange.reply.body;
  const message = exchange.streamError
    ? `the stream broke after it began: ${exchange.streamError}`
    : error && typeof error === 'object' && 'message' in error
      ? String(error.message)
      : typeof body === 'string'
        ? body
        : JSON.stringify(exchange.reply);
  return { role: 'assistant', name: TRANSCRIPT_NAMES.failed, content: `HTTP ${exchange.status} on ${exchange.path}: ${message}` };
}
