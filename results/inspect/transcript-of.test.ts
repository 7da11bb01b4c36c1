import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../core/record.js';
import { toInspectMessages } from './messages.js';
import { MessageSchema } from './read.js';
import { fromInspectMessages } from './transcript-of.js';

/** Through Inspect's shapes and JSON, as a log holds them, and back. */
const roundTrip = (t: TranscriptMessage[]) =>
  fromInspectMessages(JSON.parse(JSON.stringify(toInspectMessages(t, 'm', 'x'))).map((m: unknown) => MessageSchema.parse(m)));

describe('fromInspectMessages', () => {
  it('reads back every transcript shape our scaffolds write, exactly', () => {
    const transcripts: TranscriptMessage[][] = [
      [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'task' },
        { role: 'assistant', content: 'look', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] },
        { role: 'tool', toolCallId: 'c1', name: 'bash', content: 'a.py' },
        { role: 'user', content: 'feedback' },
        { role: 'assistant', content: 'done' },
      ],
      [
        { role: 'assistant', name: 'reasoning', content: 'think' },
        { role: 'assistant', name: 'reasoning', content: '[redacted thinking]' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'apply_patch', arguments: '*** Begin Patch' }] },
        { role: 'tool', toolCallId: 'c1', name: 'error', content: 'patch failed' },
        // Agent programs' results carry no name, and arguments may be spaced as the program wrote them.
        { role: 'assistant', content: 'again', toolCalls: [{ id: 'c2', name: 'shell', arguments: '{ "cmd": ["ls"] }' }] },
        { role: 'tool', toolCallId: 'c2', content: 'ok' },
        { role: 'tool', content: 'a result with no call' },
        { role: 'assistant', name: 'reasoning', content: 'alone' },
        { role: 'user', name: 'note', content: '[web_search_call] {}' },
      ],
    ];
    for (const t of transcripts) expect(roundTrip(t)).toEqual(t);
  });

  it('reads what other writers put in a log: content lists, images, tool errors and parse errors of their own', () => {
    const messages = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', image: 'data:...' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', reasoning: 'hm', redacted: false },
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        tool_calls: [{ id: 't', function: 'python', arguments: { code: '1' }, parse_error: 'something else' }],
      },
      { role: 'tool', content: 'boom', tool_call_id: 't', function: 'python', error: { type: 'timeout', message: 'boom' } },
    ].map((m) => MessageSchema.parse(m));
    expect(fromInspectMessages(messages)).toEqual([
      { role: 'user', content: 'see\n\n[image]' },
      { role: 'assistant', name: 'reasoning', content: 'hm' },
      { role: 'assistant', content: 'a\n\nb', toolCalls: [{ id: 't', name: 'python', arguments: '{"code":"1"}' }] },
      { role: 'tool', content: 'boom', toolCallId: 't', name: 'error' },
    ]);
  });
});
