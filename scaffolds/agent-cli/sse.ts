/** One server-sent event: its `event:` name (if any) and its `data:` lines joined. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * The events of a complete `text/event-stream` body. Blank lines end an event; `data:` lines join with newlines;
 * comments (`:`) and unknown fields are ignored, as the EventSource rules say.
 */
export function parseSse(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  let event: string | undefined;
  let data: string[] = [];
  const flush = () => {
    if (data.length > 0) events.push(event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') });
    event = undefined;
    data = [];
  };
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  flush();
  return events;
}

/** The JSON payloads of a stream's events, skipping OpenAI's `[DONE]` marker and anything that is not JSON. */
export function sseJson(body: string): { event?: string; json: Record<string, unknown> }[] {
  const out: { event?: string; json: Record<string, unknown> }[] = [];
  for (const e of parseSse(body)) {
    if (e.data === '[DONE]') continue;
    try {
      const json = JSON.parse(e.data) as unknown;
      if (json && typeof json === 'object' && !Array.isArray(json))
        out.push({ ...(e.event ? { event: e.event } : {}), json: json as Record<string, unknown> });
    } catch {
      // A malformed event is kept out of the record's reply, not fatal: the raw body is recorded beside it.
    }
  }
  return out;
}
