type Wire = 'openai' | 'anthropic' | 'responses';

/** One server-sent event: its `event:` name, if the wire names them, and its JSON data. */
export interface SseFrame {
  event?: string;
  data: object;
}

/**
 * An answer whose stream breaks after it began, as the providers document: the HTTP status was already 200, so the
 * failure comes as an event. Anthropic sends `event: error` with an `overloaded_error`; the Responses API an `error`
 * event; Chat Completions a chunk that holds only `error`. The first frame of the real answer goes out before it.
 */
export function brokenStream(wire: Wire, frames: readonly SseFrame[]): SseFrame[] {
  const opening = frames.slice(0, 1);
  if (wire === 'anthropic') {
    return [...opening, { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }];
  }
  if (wire === 'responses') {
    const error = {
      type: 'error',
      code: 'server_error',
      message: 'The server had an error while processing your request.',
      param: null,
      sequence_number: 1,
    };
    return [...opening, { event: 'error', data: error }];
  }
  return [
    ...opening,
    { data: { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } } },
  ];
}
