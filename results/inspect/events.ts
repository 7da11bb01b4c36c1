import type { StopReason } from '../../core/record.js';
import { messageText, type InspectMessage, type InspectToolCall } from './messages.js';
import type { InspectScore } from './scores.js';

/**
 * A sample's transcript as Inspect's events, which its viewer draws as a timeline: the sample's start, one model
 * event per assistant turn, one tool event per call, the limit or error it stopped at, and its scores.
 *
 * A model event's input is not written out: it points into `events_data.messages` with `input_refs` (ranges, end
 * exclusive), as Inspect's own condensed logs do, so a log grows with its transcript and not with its square.
 *
 * The store keeps no time per turn, only the sample's start and end: events of the run are stamped with its start,
 * those after it with its end, and none claims a duration. Usage is kept per sample, so no turn states its own.
 */

type Timed = { uuid: string; timestamp: string; working_start: number };
type Assistant = Extract<InspectMessage, { role: 'assistant' }>;
type Tool = Extract<InspectMessage, { role: 'tool' }>;

export type InspectEvent = Timed &
  (
    | { event: 'sample_init'; sample: { id: string; input: string; target: string }; state: { messages: InspectMessage[] } }
    | {
        event: 'model';
        model: string;
        input: [];
        input_refs: [number, number][];
        tools: [];
        tool_choice: 'auto';
        config: Record<string, never>;
        output: { model: string; choices: { message: Assistant; stop_reason: 'tool_calls' | 'stop' }[]; completion: string };
      }
    | {
        event: 'tool';
        type: 'function';
        id: string;
        function: string;
        arguments: Record<string, unknown>;
        result: string;
        events: [];
        error?: { type: 'unknown'; message: string };
        message_id?: string;
      }
    | { event: 'sample_limit'; type: LimitEventType; message: string; limit?: number }
    | { event: 'error'; error: { message: string; traceback: string; traceback_ansi: string } }
    | { event: 'score'; score: InspectScore; scorer: string; target: string; intermediate: false }
  );

export interface EventsData {
  messages: InspectMessage[];
  calls: [];
}

/** Inspect's names for the limits a sample can stop at; it has none for a full context window. */
type LimitEventType = 'message' | 'token' | 'time' | 'cost' | 'custom';

const LIMIT_EVENTS: Partial<Record<StopReason, { type: LimitEventType; what: string }>> = {
  message_limit: { type: 'message', what: 'message limit' },
  token_limit: { type: 'token', what: 'token limit' },
  time_limit: { type: 'time', what: 'time limit' },
  cost_limit: { type: 'cost', what: 'cost limit' },
  context_limit: { type: 'custom', what: "model's context window" },
};

export interface EventSource {
  id: string;
  input: string;
  target: string;
  model: string;
  messages: InspectMessage[];
  scores: Record<string, InspectScore>;
  stopReason: StopReason;
  /** The run's value of the limit the sample stopped at, when it had one. */
  limit?: number;
  error?: { message: string; traceback: string; traceback_ansi: string };
  startedAt: string;
  endedAt: string;
  totalSeconds: number;
  /** Makes event ids unique within a log. */
  uuidPrefix: string;
}

export function sampleEvents(s: EventSource): { events: InspectEvent[]; events_data: EventsData } {
  const events: InspectEvent[] = [];
  const at = (end: boolean) => ({
    uuid: `${s.uuidPrefix}-e${events.length}`,
    timestamp: end ? s.endedAt : s.startedAt,
    working_start: end ? s.totalSeconds : 0,
  });
  const firstTurn = s.messages.findIndex((m) => m.role === 'assistant');
  events.push({
    ...at(false),
    event: 'sample_init',
    sample: { id: s.id, input: s.input, target: s.target },
    state: { messages: s.messages.slice(0, firstTurn < 0 ? s.messages.length : firstTurn) },
  });
  const results = new Map(s.messages.filter((m): m is Tool => m.role === 'tool').map((m) => [m.tool_call_id, m]));
  s.messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    events.push({
      ...at(false),
      event: 'model',
      model: s.model,
      input: [],
      input_refs: i > 0 ? [[0, i]] : [],
      tools: [],
      tool_choice: 'auto',
      config: {},
      output: {
        model: s.model,
        choices: [{ message: m, stop_reason: m.tool_calls?.length ? 'tool_calls' : 'stop' }],
        completion: messageText(m.content),
      },
    });
    for (const call of m.tool_calls ?? []) events.push({ ...at(false), ...toolEvent(call, results.get(call.id)) });
  });
  const limit = LIMIT_EVENTS[s.stopReason];
  if (limit) {
    const message = `stopped at the ${limit.what}${s.limit === undefined ? '' : ` (${s.limit})`}`;
    events.push({ ...at(true), event: 'sample_limit', type: limit.type, message, ...(s.limit === undefined ? {} : { limit: s.limit }) });
  }
  if (s.error) events.push({ ...at(true), event: 'error', error: s.error });
  for (const [scorer, score] of Object.entries(s.scores)) {
    events.push({ ...at(true), event: 'score', score, scorer, target: s.target, intermediate: false });
  }
  return { events, events_data: { messages: s.messages, calls: [] } };
}

/** A call and what came back for it; a call the transcript has no result for shows an empty one. */
function toolEvent(call: InspectToolCall, result: Tool | undefined) {
  return {
    event: 'tool' as const,
    type: 'function' as const,
    id: call.id,
    function: call.function,
    arguments: call.arguments,
    result: result?.content ?? '',
    events: [] as [],
    ...(result?.error ? { error: result.error } : {}),
    ...(result ? { message_id: result.id } : {}),
  };
}
