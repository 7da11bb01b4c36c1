import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../core/record.js';
import type { ProxyExchange } from './proxy.js';
import { exchangesToTranscript, TRANSCRIPT_NAMES } from './transcript.js';

/**
 * Agent programs' traffic in each API's real shapes (as Codex, Claude Code and a Chat Completions program send it:
 * the whole conversation every time), read into the transcript a sample's record keeps.
 */
function exchange(request: unknown, reply: Record<string, unknown>, status = 200, path = '/v1/responses'): ProxyExchange {
  return { startedAt: '2026-01-01T00:00:00.000Z', ms: 5, path, status, request, reply, text: '', usage: undefined, costUsd: null, pricedAs: null };
}

/** One line per message: role, name, text and calls, so a test reads the transcript's order at a glance. */
const lines = (transcript: TranscriptMessage[]) =>
  transcript.map((m) =>
    [
      m.role,
      m.name && `(${m.name})`,
      m.toolCallId && `<${m.toolCallId}>`,
      m.content,
      ...(m.toolCalls ?? []).map((c) => `${c.name}#${c.id} ${c.arguments}`),
    ]
      .filter(Boolean)
      .join(' '),
  );

describe('a Codex run (Responses API) as a transcript', () => {
  const instructions = 'You are Codex, a coding agent.';
  const tools = [{ type: 'function', name: 'exec_command', parameters: { type: 'object' } }];
  const opening = [
    {
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: '<permissions instructions>full access</permissions instructions>' }],
    },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context><cwd>/work</cwd></environment_context>' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make test.py pass.' }] },
  ];
  const request = (input: unknown[]) => ({
    model: 'gpt-5-codex',
    instructions,
    input,
    tools,
    stream: true,
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'c0ffee',
  });
  const reasoning = {
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'Read the function first.' }],
    encrypted_content: 'gAAAA',
  };
  const cat = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"cat func.py"}' };
  const said = { type: 'message', role: 'assistant', id: 'msg_2', content: [{ type: 'output_text', text: 'I will fix it.' }] };
  const edit = {
    type: 'function_call',
    id: 'fc_2',
    call_id: 'call_2',
    name: 'exec_command',
    arguments: '{"cmd":"sed -i s/-/+/ func.py","yield_time_ms":1000}',
  };
  const patch = { type: 'custom_tool_call', id: 'ct_3', call_id: 'call_3', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' };
  const output = (callId: string, text: string, type = 'function_call_output') => ({ type, call_id: callId, output: text });
  const turn1 = [...opening, reasoning, cat, output('call_1', 'def f(a, b):\n    return a - b')];
  const turn2 = [...turn1, said, edit, patch, output('call_2', ''), output('call_3', 'Done!', 'custom_tool_call_output')];
  const exchanges = [
    exchange(request(opening), { id: 'resp_1', output: [reasoning, cat] }),
    exchange(request(turn1), { id: 'resp_2', output: [said, edit, patch] }),
    exchange(request(turn2), { id: 'resp_3', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] }] }),
  ];

  it('shows the instructions and prompt once, then each turn: what the request added and what came back', () => {
    expect(lines(exchangesToTranscript('openai-responses', exchanges))).toEqual([
      `system ${instructions}`,
      'system (developer) <permissions instructions>full access</permissions instructions>',
      'user <environment_context><cwd>/work</cwd></environment_context>',
      'user Make test.py pass.',
      'assistant (reasoning) Read the function first.',
      'assistant exec_command#call_1 {"cmd":"cat func.py"}',
      'tool <call_1> def f(a, b):\n    return a - b',
      'assistant I will fix it. exec_command#call_2 {"cmd":"sed -i s/-/+/ func.py","yield_time_ms":1000} apply_patch#call_3 *** Begin Patch\n*** End Patch',
      'tool <call_2>',
      'tool <call_3> Done!',
      'assistant Fixed.',
    ]);
  });

  it('keeps a failed request as a note, and its retry adds nothing twice', () => {
    const failed = exchange(request(turn2), { error: { message: 'upstream timed out', type: 'server_error' } }, 502);
    const transcript = exchangesToTranscript('openai-responses', [...exchanges.slice(0, 2), failed, exchanges[2]!]);
    expect(lines(transcript).slice(-4)).toEqual([
      'tool <call_2>',
      'tool <call_3> Done!',
      `assistant (${TRANSCRIPT_NAMES.failed}) HTTP 502 on /v1/responses: upstream timed out`,
      'assistant Fixed.',
    ]);
    expect(transcript.filter((m) => m.toolCallId === 'call_3')).toHaveLength(1);
  });

  it('notes a rewritten history that keeps the opening (a compaction), showing only what replaced the rest', () => {
    const summary = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summary so far: f now adds.' }] };
    const next = exchange(request([...opening, summary]), {
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] }],
    });
    const shown = lines(exchangesToTranscript('openai-responses', [...exchanges, next]));
    expect(shown.slice(-3)).toEqual([
      `system (${TRANSCRIPT_NAMES.newConversation}) The agent program rewrote its conversation here (a compaction): it kept the first 3 of 8 messages; what it sent in place of the rest follows.`,
      'user Summary so far: f now adds.',
      'assistant Checking.',
    ]);
    expect(shown.filter((l) => l === 'user Make test.py pass.')).toHaveLength(1);
  });

  it('takes a resend that leaves out old reasoning as the same conversation', () => {
    const withoutReasoning = turn2.filter((item) => item !== reasoning);
    const shown = exchangesToTranscript('openai-responses', [...exchanges.slice(0, 2), exchange(request(withoutReasoning), exchanges[2]!.reply)]);
    expect(lines(shown)).toEqual(lines(exchangesToTranscript('openai-responses', exchanges)));
  });

  it('shows built-in tool calls (local shell, web search) with what they asked, and their outputs', () => {
    const shell = { type: 'local_shell_call', id: 'lsh_1', call_id: 'call_l', status: 'completed', action: { type: 'exec', command: ['ls'] } };
    const search = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'python add' } };
    const shown = exchangesToTranscript('openai-responses', [
      exchange(request(opening), { output: [search, shell] }),
      exchange(request([...opening, search, shell, { type: 'local_shell_call_output', call_id: 'call_l', output: 'func.py' }]), { output: [] }),
    ]);
    expect(lines(shown).slice(-2)).toEqual([
      'assistant web_search#ws_1 {"action":{"type":"search","query":"python add"}} local_shell#call_l {"action":{"type":"exec","command":["ls"]}}',
      'tool <call_l> func.py',
    ]);
  });

  it('opens a new section when the program starts over with a compacted history', () => {
    const compacted = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summary: f now adds.' }] }];
    const next = exchange(request(compacted), {
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking again.' }] }],
    });
    expect(lines(exchangesToTranscript('openai-responses', [...exchanges, next])).slice(-3)).toEqual([
      `system (${TRANSCRIPT_NAMES.newConversation}) The agent program started a new conversation here (a compaction or a restart): the requests below do not continue the ones above.`,
      'user Summary: f now adds.',
      'assistant Checking again.',
    ]);
  });
});

describe('a Claude Code run (Anthropic Messages) as a transcript', () => {
  const system = [
    { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.332' },
    { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } },
  ];
  const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
  const prompt = {
    role: 'user',
    content: [
      { type: 'text', text: '<system-reminder>Today is Thursday.</system-reminder>' },
      { type: 'text', text: 'Make test.py pass.', cache_control: { type: 'ephemeral' } },
    ],
  };
  const main = (messages: unknown[]) => ({ model: 'claude-sonnet-4-5', max_tokens: 32000, stream: true, system, messages, tools });
  const side = (text: string) => ({ model: 'claude-haiku-4-5', max_tokens: 512, stream: true, messages: [{ role: 'user', content: text }] });
  const reply1 = [
    { type: 'thinking', thinking: 'Look first.', signature: 'sig' },
    { type: 'text', text: 'Let me look.' },
    { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat func.py', description: 'Show the function' } },
  ];
  const reply2 = [{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: '/work/func.py', old_string: 'a - b', new_string: 'a + b' } }];
  const turn1 = [
    prompt,
    { role: 'assistant', content: reply1 },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'return a - b' }] },
  ];
  const turn2 = [
    ...turn1,
    { role: 'assistant', content: reply2 },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'The file was updated.' }] }] },
  ];
  const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

  it('marks the small model`s side calls, shows system and prompt once, and each tool call as sent', () => {
    const transcript = exchangesToTranscript('anthropic', [
      exchange(side('Write a 5-10 word title for: Make test.py pass.'), text('Fixing the test'), 200, '/v1/messages'),
      exchange(main([prompt]), { content: reply1 }, 200, '/v1/messages'),
      exchange(main(turn1), { content: reply2 }, 200, '/v1/messages'),
      exchange(main(turn2), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 529, '/v1/messages'),
      exchange(main(turn2), text('Done: f adds.'), 200, '/v1/messages'),
    ]);
    expect(lines(transcript)).toEqual([
      'user (side request) [claude-haiku-4-5] Write a 5-10 word title for: Make test.py pass.',
      'assistant (side request) Fixing the test',
      'system x-anthropic-billing-header: cc_version=2.1.332\n\nYou are Claude Code.',
      'user <system-reminder>Today is Thursday.</system-reminder>\n\nMake test.py pass.',
      'assistant (reasoning) Look first.',
      'assistant Let me look. Bash#toolu_1 {"command":"cat func.py","description":"Show the function"}',
      'tool <toolu_1> return a - b',
      'assistant Edit#toolu_2 {"file_path":"/work/func.py","old_string":"a - b","new_string":"a + b"}',
      'tool <toolu_2> The file was updated.',
      'assistant (request failed) HTTP 529 on /v1/messages: Overloaded',
      'assistant Done: f adds.',
    ]);
  });

  it('marks a failed side call as the side call`s', () => {
    const transcript = exchangesToTranscript('anthropic', [
      exchange(main([prompt]), { content: reply1 }, 200, '/v1/messages'),
      exchange(side('Title?'), { type: 'error', error: { type: 'api_error', message: 'Internal server error' } }, 500, '/v1/messages'),
    ]);
    expect(lines(transcript).slice(-2)).toEqual([
      'user (side request) [claude-haiku-4-5] Title?',
      'assistant (side request: request failed) HTTP 500 on /v1/messages: Internal server error',
    ]);
  });

  it('marks a sub-agent`s whole conversation as side requests when the main one resumes after it', () => {
    const subSystem = [{ type: 'text', text: 'You are a sub-agent.' }];
    const sub = (messages: unknown[]) => ({ ...main(messages), system: subSystem });
    const task = { role: 'user', content: 'Find the failing test.' };
    const subCall = [{ type: 'tool_use', id: 'toolu_s', name: 'Bash', input: { command: 'python test.py' } }];
    const transcript = exchangesToTranscript('anthropic', [
      exchange(main([prompt]), { content: reply1 }, 200, '/v1/messages'),
      exchange(sub([task]), { content: subCall }, 200, '/v1/messages'),
      exchange(
        sub([
          task,
          { role: 'assistant', content: subCall },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: 'FAILED' }] },
        ]),
        text('test_add fails.'),
        200,
        '/v1/messages',
      ),
      exchange(main(turn1), { content: reply2 }, 200, '/v1/messages'),
    ]);
    expect(lines(transcript).slice(4)).toEqual([
      'user (side request) [claude-sonnet-4-5] Find the failing test.',
      'assistant (side request) Bash#toolu_s {"command":"python test.py"}',
      'user (side request) [claude-sonnet-4-5] FAILED',
      'assistant (side request) test_add fails.',
      'tool <toolu_1> return a - b',
      'assistant Edit#toolu_2 {"file_path":"/work/func.py","old_string":"a - b","new_string":"a + b"}',
    ]);
  });

  it('treats a same-model detour the main thread then resumes past as a side request', () => {
    const detour = main([{ role: 'user', content: 'Summarise this command: cat func.py' }]);
    const transcript = exchangesToTranscript('anthropic', [
      exchange(main([prompt]), { content: reply1 }, 200, '/v1/messages'),
      exchange(detour, text('Shows a file.'), 200, '/v1/messages'),
      exchange(main(turn1), { content: reply2 }, 200, '/v1/messages'),
    ]);
    expect(lines(transcript).slice(4)).toEqual([
      'user (side request) [claude-sonnet-4-5] Summarise this command: cat func.py',
      'assistant (side request) Shows a file.',
      'tool <toolu_1> return a - b',
      'assistant Edit#toolu_2 {"file_path":"/work/func.py","old_string":"a - b","new_string":"a + b"}',
    ]);
  });
});

describe('a Chat Completions program as a transcript', () => {
  it('shows the messages it added and the tool calls of each reply', () => {
    const call = { id: 'call_a', type: 'function', function: { name: 'bash', arguments: '{"command":"python test.py"}' } };
    const opening = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: [{ type: 'text', text: 'Make test.py pass.' }] },
    ];
    const answer = { role: 'assistant', content: null, tool_calls: [call] };
    const transcript = exchangesToTranscript('openai-chat', [
      exchange({ model: 'gpt-4o', messages: opening, tools: [{}] }, { choices: [{ index: 0, message: answer, finish_reason: 'tool_calls' }] }),
      exchange(
        { model: 'gpt-4o', messages: [...opening, answer, { role: 'tool', tool_call_id: 'call_a', content: 'OK' }], tools: [{}] },
        { choices: [{ index: 0, message: { role: 'assistant', content: 'All tests pass.' }, finish_reason: 'stop' }] },
      ),
    ]);
    expect(lines(transcript)).toEqual([
      'system You are a coding agent.',
      'user Make test.py pass.',
      'assistant bash#call_a {"command":"python test.py"}',
      'tool <call_a> OK',
      'assistant All tests pass.',
    ]);
  });
});
