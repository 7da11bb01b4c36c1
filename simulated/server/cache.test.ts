import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSpec } from '../../core/model.js';
import { MessagesRequestSchema } from './anthropic-wire.js';
import { anthropicBreakpoints, anthropicCacheUsage, cachedPrefixTokens, newPromptCache } from './cache.js';
import { countInputTokens } from './tokens.js';

const TOOLS: ToolSpec[] = [{ name: 'bash', description: 'Run a command.', parameters: { type: 'object', properties: {} } }];
// 3,900 characters: about 975 tokens, so the system prompt alone is just under the 1,024-token minimum.
const SYSTEM: ChatMessage = { role: 'system', content: 's'.repeat(3_900) };
const USER: ChatMessage = { role: 'user', content: 'Fix the widths.' };

/** The conversation after `turns` tool-calling turns, each with an output of `size` characters. */
function conversation(turns: number, size = 2_000): ChatMessage[] {
  const out: ChatMessage[] = [SYSTEM, USER];
  for (let t = 0; t < turns; t++) {
    out.push({ role: 'assistant', content: `step ${t}`, toolCalls: [{ id: `c${t}`, name: 'bash', arguments: `{"command":"cat f${t}"}` }] });
    out.push({ role: 'tool', toolCallId: `c${t}`, name: 'bash', content: String(t % 10).repeat(size) });
  }
  return out;
}

const tokens = (messages: ChatMessage[]) => countInputTokens(messages, TOOLS);

describe('the OpenAI-style prompt cache', () => {
  it('reads the longest prefix served before, in steps of 128 tokens', () => {
    const cache = newPromptCache();
    expect(cachedPrefixTokens(cache, conversation(1), TOOLS)).toBe(0);
    const before = tokens(conversation(1));
    const cached = cachedPrefixTokens(cache, conversation(2), TOOLS);
    expect(cached).toBe(Math.floor(before / 128) * 128);
    expect(cached % 128).toBe(0);
    expect(cached).toBeGreaterThan(before - 128);
    // The same prompt again reads all of itself that fills whole steps.
    expect(cachedPrefixTokens(cache, conversation(2), TOOLS)).toBe(Math.floor(tokens(conversation(2)) / 128) * 128);
  });

  it('caches nothing under 1,024 tokens, and nothing across sessions or after a changed message', () => {
    const short = [SYSTEM];
    const cache = newPromptCache();
    cachedPrefixTokens(cache, short, TOOLS);
    expect(tokens([...short, USER])).toBeLessThan(1024);
    expect(cachedPrefixTokens(cache, [...short, USER], TOOLS)).toBe(0);

    cachedPrefixTokens(cache, conversation(2), TOOLS);
    expect(cachedPrefixTokens(newPromptCache(), conversation(3), TOOLS)).toBe(0);
    // A different first message: only the tools are shared, far under the minimum.
    const changed = [{ role: 'system' as const, content: 'other' }, ...conversation(3).slice(1)];
    expect(cachedPrefixTokens(cache, changed, TOOLS)).toBe(0);
  });
});

describe('the Anthropic-style prompt cache', () => {
  it('caches nothing without a breakpoint', () => {
    const cache = newPromptCache();
    expect(anthropicCacheUsage(cache, conversation(2), TOOLS, [])).toEqual({ read: 0, write: 0 });
    expect(anthropicCacheUsage(cache, conversation(3), TOOLS, [])).toEqual({ read: 0, write: 0 });
  });

  it('writes up to the newest breakpoint, and the next turn reads what the last one wrote', () => {
    const cache = newPromptCache();
    const first = conversation(1);
    // The system breakpoint (after 1 message) is under the minimum: only the one on the newest turn is written.
    expect(anthropicCacheUsage(cache, first, TOOLS, [1, first.length])).toEqual({ read: 0, write: tokens(first) });
    const second = conversation(2);
    expect(anthropicCacheUsage(cache, second, TOOLS, [1, second.length])).toEqual({ read: tokens(first), write: tokens(second) - tokens(first) });
    // A breakpoint before the end leaves the rest as plain input.
    const third = conversation(3);
    const usage = anthropicCacheUsage(cache, third, TOOLS, [second.length]);
    expect(usage).toEqual({ read: tokens(second), write: 0 });
    expect(tokens(third) - usage.read - usage.write).toBeGreaterThan(0);
  });

  it('looks back at most 20 messages from a breakpoint, and caches nothing under 1,024 tokens', () => {
    const cache = newPromptCache();
    const start = conversation(1);
    anthropicCacheUsage(cache, start, TOOLS, [start.length]);
    const far = conversation(12);
    expect(far.length - start.length).toBeGreaterThan(20);
    expect(anthropicCacheUsage(cache, far, TOOLS, [far.length]).read).toBe(0);
    const tiny: ChatMessage[] = [{ role: 'system', content: 'Be brief.' }, USER];
    expect(anthropicCacheUsage(cache, tiny, TOOLS, [1, 2])).toEqual({ read: 0, write: 0 });
  });

  it('finds the breakpoints of a Messages request as the server converts it', () => {
    const mark = { cache_control: { type: 'ephemeral' } };
    const request = MessagesRequestSchema.parse({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'Be careful.', ...mark }],
      messages: [
        { role: 'user', content: 'Fix it.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: 'a.py' },
            { type: 'text', text: 'Go on.', ...mark },
          ],
        },
      ],
    });
    // system, user, assistant, tool, user: the mark on the last turn falls after all five.
    expect(anthropicBreakpoints(request)).toEqual([1, 5]);
    expect(anthropicBreakpoints({ ...request, system: 'Be careful.' })).toEqual([5]);
  });
});
