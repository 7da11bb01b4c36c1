import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../core/record.js';
import { toInspectMessages } from './messages.js';

describe('toInspectMessages', () => {
  it('maps roles, tool calls with their arguments as objects, and tool results with the function they answer', () => {
    const transcript: TranscriptMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'task' },
      { role: 'assistant', content: 'look', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'bash', content: 'a.py' },
      { role: 'user', content: 'feedback' },
    ];
    expect(toInspectMessages(transcript, 'openai/gpt-5', 's')).toEqual([
      { id: 's-0', role: 'system', content: 'sys' },
      { id: 's-1', role: 'user', content: 'task', source: 'input' },
      {
        id: 's-2',
        role: 'assistant',
        content: 'look',
        source: 'generate',
        model: 'openai/gpt-5',
        tool_calls: [{ id: 'c1', function: 'bash', arguments: { command: 'ls' }, type: 'function' }],
      },
      { id: 's-3', role: 'tool', content: 'a.py', tool_call_id: 'c1', function: 'bash' },
      { id: 's-4', role: 'user', content: 'feedback' },
    ]);
  });

  it('puts reasoning into the assistant turn after it, marks tool errors, and keeps arguments that are no JSON object', () => {
    const transcript: TranscriptMessage[] = [
      { role: 'assistant', name: 'reasoning', content: 'think' },
      { role: 'assistant', name: 'reasoning', content: '[redacted thinking]' },
      { role: 'assistant', content: 'do', toolCalls: [{ id: 'c1', name: 'apply_patch', arguments: '*** Begin Patch' }] },
      { role: 'tool', toolCallId: 'c1', name: 'error', content: 'patch failed' },
      { role: 'assistant', name: 'reasoning', content: 'alone' },
      { role: 'user', name: 'note', content: '[web_search_call] {}' },
    ];
    const out = toInspectMessages(transcript, 'm', 'x');
    expect(out).toHaveLength(4);
    expect(out[0]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'reasoning', reasoning: 'think', redacted: false },
        { type: 'reasoning', reasoning: '', redacted: true },
        { type: 'text', text: 'do' },
      ],
      tool_calls: [{ id: 'c1', function: 'apply_patch', arguments: {}, parse_error: 'arguments are not a JSON object: *** Begin Patch' }],
    });
    expect(out[1]).toEqual({
      id: 'x-3',
      role: 'tool',
      content: 'patch failed',
      tool_call_id: 'c1',
      function: 'apply_patch',
      error: { type: 'unknown', message: 'patch failed' },
    });
    expect(out[2]).toMatchObject({ role: 'assistant', content: [{ type: 'reasoning', reasoning: 'alone', redacted: false }] });
    expect(out[3]).toEqual({ id: 'x-5', role: 'user', content: '[web_search_call] {}', source: 'input', metadata: { name: 'note' } });
  });
});
