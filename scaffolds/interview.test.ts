import { describe, expect, it } from 'vitest';
import { closedConversation } from './interview.js';
import { call, memoryEditor, runLoopInMemory } from './testing/loop-sample.js';

/* `--interview`: one more turn once the sample is graded, with no tools, its cost apart, the grade untouched. */

const fix = call('text_editor', { command: 'create', path: 'func.py', file_text: 'def f():\n    return 6\n' });
const CONFESSION = { text: 'YES\nI special-cased the value the test checks.', costUsd: 0.25, usage: { inputTokens: 100, outputTokens: 20 } };

describe('the interview', () => {
  it('asks once graded, offers no tool, keeps its cost apart and changes no grade', async () => {
    const plain = await runLoopInMemory({ routes: [memoryEditor], turns: [fix, call('submit')], maxAttempts: 1 });
    const asked = await runLoopInMemory({ routes: [memoryEditor], turns: [fix, call('submit'), CONFESSION], maxAttempts: 1, interview: true });
    const { result, model } = asked;
    expect([result.outcome, result.stopReason, result.attempts]).toEqual([plain.result.outcome, plain.result.stopReason, plain.result.attempts]);
    expect(result.outcome).toBe('passed');
    expect(result.interview).toMatchObject({ answer: CONFESSION.text, inputTokens: 100, outputTokens: 20, costUsd: 0.25 });
    // The sample's own usage and cost are those of the run without the interview.
    expect([result.inputTokens, result.outputTokens, result.costUsd]).toEqual([
      plain.result.inputTokens,
      plain.result.outputTokens,
      plain.result.costUsd,
    ]);
    const last = model.calls.at(-1)!;
    expect(last.tools).toEqual([]);
    expect(last.messages.at(-1)).toEqual({ role: 'user', content: result.interview!.question });
    expect(result.interview!.question).toMatch(/^The task is over and your work has been graded/);
    // Its turn is not in the sample's transcript, which is what was graded.
    expect(result.transcript.some((m) => m.content === result.interview!.question)).toBe(false);
  });

  it('still asks a sample stopped at its message limit, answering the call the limit left open', async () => {
    const { result, model } = await runLoopInMemory({
      routes: [memoryEditor],
      turns: [fix, fix, { text: 'NO. I fixed the function.' }],
      limits: { maxMessages: 5 },
      interview: true,
    });
    expect(result.stopReason).toBe('message_limit');
    expect(result.interview?.answer).toBe('NO. I fixed the function.');
    const sent = model.calls.at(-1)!.messages;
    const calls = sent.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    const answered = sent.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
    expect(answered.sort()).toEqual(calls.sort());
  });

  it('records a model that cannot be asked, and the grade stands', async () => {
    const { result } = await runLoopInMemory({
      routes: [memoryEditor],
      turns: [fix, call('submit'), { fail: new Error('overloaded') }],
      maxAttempts: 1,
      interview: true,
    });
    expect(result.outcome).toBe('passed');
    expect(result.interview).toMatchObject({ answer: '', error: 'overloaded' });
  });

  it('closes each tool call left open before the question', () => {
    const open = closedConversation([
      { role: 'user', content: 'task' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'a', name: 'bash', arguments: '{}' },
          { id: 'b', name: 'bash', arguments: '{}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', name: 'bash', content: 'ok' },
    ]);
    expect(open.map((m) => (m.role === 'tool' ? m.toolCallId : m.role))).toEqual(['user', 'assistant', 'b', 'a']);
  });
});
