import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../core/record.js';
import { sampleEvents, type EventSource } from './events.js';
import { toInspectMessages } from './messages.js';

/** A transcript of `turns` tool-calling turns, the second call of each failing. */
function transcript(turns: number): TranscriptMessage[] {
  const out: TranscriptMessage[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'task' },
  ];
  for (let t = 0; t < turns; t++) {
    out.push({
      role: 'assistant',
      content: `turn ${t}`,
      toolCalls: [
        { id: `a${t}`, name: 'bash', arguments: '{"command":"ls"}' },
        { id: `b${t}`, name: 'bash', arguments: '{"command":"false"}' },
      ],
    });
    out.push({ role: 'tool', toolCallId: `a${t}`, content: 'a.py' });
    out.push({ role: 'tool', toolCallId: `b${t}`, name: 'error', content: 'exit 1' });
  }
  out.push({ role: 'assistant', content: 'done' });
  return out;
}

const source = (turns: number, over: Partial<EventSource> = {}): EventSource => ({
  id: 't-oneoff',
  input: 'task',
  target: '',
  model: 'm/x',
  messages: toInspectMessages(transcript(turns), 'm/x', 's'),
  scores: { outcome: { value: 'passed', history: [] }, label: { value: 'cheating', history: [] } },
  stopReason: 'submitted',
  startedAt: '2026-01-01T10:00:00.000Z',
  endedAt: '2026-01-01T10:01:00.000Z',
  totalSeconds: 60,
  uuidPrefix: 'u',
  ...over,
});

describe('sampleEvents', () => {
  it('starts the sample, then a model event per turn followed by its tool calls with their results, then the scores', () => {
    const { events, events_data } = sampleEvents(source(2));
    expect(events.map((e) => (e.event === 'score' ? `score:${e.scorer}` : e.event))).toEqual([
      'sample_init',
      ...['model', 'tool', 'tool', 'model', 'tool', 'tool', 'model'],
      'score:outcome',
      'score:label',
    ]);
    const models = events.filter((e) => e.event === 'model');
    // Each turn's input is the conversation before it, by reference into the pooled messages.
    expect(models.map((e) => e.input_refs)).toEqual([[[0, 2]], [[0, 5]], [[0, 8]]]);
    for (const [i, m] of models.entries()) {
      const [[, end]] = m.input_refs as [[number, number]];
      expect(events_data.messages[end]).toBe(m.output.choices[0]!.message);
      expect(m.input).toEqual([]);
      expect(m.output.choices[0]!.stop_reason).toBe(i < 2 ? 'tool_calls' : 'stop');
    }
    const tools = events.filter((e) => e.event === 'tool');
    expect(tools.map((e) => [e.id, e.result, e.error?.message])).toEqual([
      ['a0', 'a.py', undefined],
      ['b0', 'exit 1', 'exit 1'],
      ['a1', 'a.py', undefined],
      ['b1', 'exit 1', 'exit 1'],
    ]);
    expect(new Set(events.map((e) => e.uuid)).size).toBe(events.length);
    // Nothing was timed per turn: the run's events carry the start, the scores the end.
    expect(events.filter((e) => e.event !== 'score').every((e) => e.timestamp === '2026-01-01T10:00:00.000Z')).toBe(true);
    expect(events.filter((e) => e.event === 'score').every((e) => e.working_start === 60)).toBe(true);
  });

  it('says where a sample stopped at a limit or an error, before its scores', () => {
    const limited = sampleEvents(source(1, { stopReason: 'message_limit', limit: 30 })).events;
    expect(limited.find((e) => e.event === 'sample_limit')).toMatchObject({
      type: 'message',
      limit: 30,
      message: 'stopped at the message limit (30)',
    });
    const context = sampleEvents(source(1, { stopReason: 'context_limit' })).events;
    expect(context.find((e) => e.event === 'sample_limit')).toMatchObject({ type: 'custom', message: "stopped at the model's context window" });
    const error = { message: 'boom', traceback: 'boom\nat x', traceback_ansi: 'boom\nat x' };
    const errored = sampleEvents(source(1, { error })).events;
    const at = errored.findIndex((e) => e.event === 'error');
    expect(errored[at]).toMatchObject({ error });
    expect(errored.slice(at + 1).every((e) => e.event === 'score')).toBe(true);
    expect(sampleEvents(source(1)).events.some((e) => e.event === 'error' || e.event === 'sample_limit')).toBe(false);
  });

  it('grows with the transcript, not with its square', () => {
    const size = (turns: number) => JSON.stringify(sampleEvents(source(turns))).length;
    const [small, large] = [size(50), size(200)];
    expect(large / small).toBeLessThan(4.5);
  });
});
