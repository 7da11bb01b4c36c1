import { describe, expect, it } from 'vitest';
import { toAnthropicMessages } from './anthropic-client.js';
import { toOpenAIMessages } from './openai-client.js';
import type { ChatMessage } from '../core/model.js';

const conversation: ChatMessage[] = [
  { role: 'system', content: 'Be careful.' },
  { role: 'user', content: 'Fix it.' },
  {
    role: 'assistant',
    content: '',
    reasoning: [{ type: 'thinking', thinking: 'Look first.', signature: 'sig' }],
    toolCalls: [
      { id: 't1', name: 'bash', arguments: '{"command":"ls"}' },
      { id: 't2', name: 'bash', arguments: '{"command":"cat' },
    ],
  },
  { role: 'tool', toolCallId: 't1', name: 'bash', content: 'func.py' },
  { role: 'tool', toolCallId: 't2', name: 'bash', content: 'error: the arguments are not valid JSON' },
  { role: 'user', content: 'Attempt 1 failed.' },
];

describe('toAnthropicMessages', () => {
  it('moves system text out, merges results and feedback into one user turn, and keeps thinking first', () => {
    const { system, messages } = toAnthropicMessages(conversation);
    expect(system).toBe('Be careful.');
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Fix it.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Look first.', signature: 'sig' },
          { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } },
          // A malformed call goes back as the text the model sent.
          { type: 'tool_use', id: 't2', name: 'bash', input: '{"command":"cat' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'func.py' },
          { type: 'tool_result', tool_use_id: 't2', content: 'error: the arguments are not valid JSON' },
          { type: 'text', text: 'Attempt 1 failed.' },
        ],
      },
    ]);
  });

  it('never sends an empty turn', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: '  ' },
      { role: 'assistant', content: '' },
    ]);
    expect(messages.every((m) => Array.isArray(m.content) && m.content.length > 0)).toBe(true);
  });
});

describe('toOpenAIMessages', () => {
  it('keeps calls with their raw arguments and answers them by id', () => {
    const wire = toOpenAIMessages(conversation);
    expect(wire[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 't1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
        { id: 't2', type: 'function', function: { name: 'bash', arguments: '{"command":"cat' } },
      ],
    });
    expect(wire[4]).toEqual({ role: 'tool', tool_call_id: 't2', content: 'error: the arguments are not valid JSON' });
  });
});
