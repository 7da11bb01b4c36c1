import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../core/record.js';
import { PriceTable } from '../../models/prices.js';
import type { Policy } from '../policy.js';
import { FaultConfigSchema } from '../server/faults.js';
import { BASH, CONTEXT } from '../testing/echo.js';
import { useModelServer } from '../testing/model-server.js';
import { RecordingProxy } from '../../scaffolds/agent-cli/proxy.js';
import type { AgentApi } from '../../scaffolds/agent-cli/replies.js';
import { exchangesToTranscript, TRANSCRIPT_NAMES } from '../../scaffolds/agent-cli/transcript.js';

/**
 * Real exchanges made into a transcript: a program drives the real `openai` and `@anthropic-ai/sdk` clients with
 * streaming, resending the whole conversation each turn as agent CLIs do, through a RecordingProxy in front of the
 * local model server. The server answers the second request with a 500 once (the client retries it), and the
 * Anthropic program makes a small side call mid-run, as Claude Code does.
 */
const server = useModelServer();
const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

const COMMANDS = ['ls /work', 'python test.py'];
/** Runs each command in turn, then says it is done; a request without tools (a side call) gets a title. */
const twoCommands: Policy = {
  name: 'two-commands',
  next(messages, tools) {
    if (tools.length === 0) return { text: 'Title: fixing add' };
    const ran = messages.filter((m) => m.role === 'tool').length;
    const command = COMMANDS[ran];
    return command ? { text: `Step ${ran + 1}.`, toolCalls: [{ name: 'bash', arguments: JSON.stringify({ command }) }] } : { text: 'All done.' };
  },
};

async function startProxy(api: AgentApi, model: string) {
  const token = server.openSession(twoCommands, CONTEXT, { faults: FaultConfigSchema.parse({ sequence: ['none', 'server_error'] }) });
  const proxy = new RecordingProxy({
    api,
    upstream: api === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl,
    apiKey: token,
    model,
    prices: new PriceTable(),
    limits: {},
  });
  proxies.push(proxy);
  return { proxy, base: `http://127.0.0.1:${await proxy.start()}` };
}

const PROMPT = 'Make test.py pass.';
const SYSTEM = 'You are a coding agent.';
/** What the tool "printed", so a tool result names its command. */
const ran = (args: string) => `ran ${JSON.parse(args).command}`;

/** The transcript's main thread as lines: its order and every call with its arguments. */
function mainThread(transcript: TranscriptMessage[]): string[] {
  return transcript
    .filter((m) => !m.name?.startsWith(TRANSCRIPT_NAMES.side))
    .map((m) =>
      [m.role, m.name && `(${m.name})`, m.content, ...(m.toolCalls ?? []).map((c) => `${c.name} ${c.arguments}`)].filter(Boolean).join(' '),
    );
}

const EXPECTED = [
  `system ${SYSTEM}`,
  `user ${PROMPT}`,
  'assistant Step 1. bash {"command":"ls /work"}',
  'tool ran ls /work',
  expect.stringMatching(/^assistant \(request failed\) HTTP 500 on \/v1\/.+/),
  'assistant Step 2. bash {"command":"python test.py"}',
  'tool ran python test.py',
  'assistant All done.',
];

describe('a transcript from recorded traffic', () => {
  it('Responses, streamed and stateless: each turn once, the failed try noted, calls matched to their outputs', async () => {
    const { proxy, base } = await startProxy('openai-responses', 'openai/gpt-5-codex');
    const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 1 });
    const input: ResponseInputItem[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: PROMPT }] }];
    const tools = [{ type: 'function' as const, name: 'bash', parameters: BASH.parameters, strict: false }];
    for (let turn = 0; turn < 5; turn++) {
      const reply = await sdk.responses
        .stream({ model: 'gpt-5-codex', instructions: SYSTEM, input, tools, store: false, include: ['reasoning.encrypted_content'] })
        .finalResponse();
      input.push(...(reply.output as ResponseInputItem[]));
      const calls = reply.output.flatMap((o) => (o.type === 'function_call' ? [o] : []));
      if (!calls.length) break;
      for (const call of calls) input.push({ type: 'function_call_output', call_id: call.call_id, output: ran(call.arguments) });
    }
    const transcript = exchangesToTranscript('openai-responses', proxy.exchanges);
    expect(proxy.exchanges.map((e) => e.status)).toEqual([200, 500, 200, 200]);
    expect(mainThread(transcript)).toEqual(EXPECTED);
    const calls = transcript.flatMap((m) => m.toolCalls ?? []);
    expect(transcript.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(calls.map((c) => c.id));
  });

  it('Anthropic, streamed, with a small-model side call between a tool call and its result', async () => {
    const { proxy, base } = await startProxy('anthropic', 'anthropic/claude-sonnet-4-6');
    const sdk = new Anthropic({ apiKey: proxy.agentKey, baseURL: base, maxRetries: 1 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: [{ type: 'text', text: PROMPT }] }];
    const tools = [{ name: 'bash', input_schema: BASH.parameters as Anthropic.Tool.InputSchema }];
    for (let turn = 0; turn < 5; turn++) {
      const reply = await sdk.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 4096, system: SYSTEM, messages, tools }).finalMessage();
      messages.push({ role: 'assistant', content: reply.content });
      const calls = reply.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
      if (!calls.length) break;
      if (turn === 1) {
        const side = [{ role: 'user' as const, content: 'Write a 5-word title for: Make test.py pass.' }];
        await sdk.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 100, messages: side }).finalMessage();
      }
      const results = calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: c.id, content: ran(JSON.stringify(c.input)) }));
      messages.push({ role: 'user', content: results });
    }
    const transcript = exchangesToTranscript('anthropic', proxy.exchanges);
    expect(mainThread(transcript)).toEqual(EXPECTED);
    const side = transcript.filter((m) => m.name === TRANSCRIPT_NAMES.side);
    expect(side.map((m) => `${m.role} ${m.content}`)).toEqual([
      'user [claude-haiku-4-5] Write a 5-word title for: Make test.py pass.',
      'assistant Title: fixing add',
    ]);
    // The side call comes between the second call and its result, where the program made it.
    const at = (pred: (m: TranscriptMessage) => boolean) => transcript.findIndex(pred);
    expect(at((m) => m.name === TRANSCRIPT_NAMES.side)).toBeGreaterThan(at((m) => !!m.toolCalls?.[0]?.arguments.includes('python test.py')));
    expect(at((m) => m.name === TRANSCRIPT_NAMES.side)).toBeLessThan(at((m) => m.content === 'ran python test.py'));
  });

  it('Chat Completions, streamed', async () => {
    const { proxy, base } = await startProxy('openai-chat', 'openai/gpt-4o');
    const sdk = new OpenAI({ apiKey: proxy.agentKey, baseURL: `${base}/v1`, maxRetries: 1 });
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: PROMPT },
    ];
    const tools = [{ type: 'function' as const, function: { name: 'bash', parameters: BASH.parameters } }];
    for (let turn = 0; turn < 5; turn++) {
      const reply = await sdk.chat.completions
        .stream({ model: 'gpt-4o', messages, tools, stream_options: { include_usage: true } })
        .finalChatCompletion();
      const message = reply.choices[0]!.message;
      messages.push({ role: 'assistant', content: message.content, ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}) });
      const calls = (message.tool_calls ?? []).flatMap((c) => (c.type === 'function' ? [c] : []));
      if (!calls.length) break;
      for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: ran(call.function.arguments) });
    }
    expect(mainThread(exchangesToTranscript('openai-chat', proxy.exchanges))).toEqual(EXPECTED);
  });
});
