import type { ChatMessage, ToolSpec } from '../../core/model.js';
import { FLAG_SENTINEL, FLAG_TOOL_NAME } from '../../scaffolds/prompts.js';

/** A tool call the policy made earlier, with the result the scaffold sent back (undefined while pending). */
export interface PastCall {
  name: string;
  /** Parsed arguments; null when the JSON did not survive the trip. */
  args: Record<string, unknown> | null;
  result: string | undefined;
}

export function pastCalls(messages: ChatMessage[]): PastCall[] {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m.content);
  const calls: PastCall[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      let args: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(call.arguments);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
      } catch {
        args = null;
      }
      calls.push({ name: call.name, args, result: results.get(call.id) });
    }
  }
  return calls;
}

/** Did a tool call succeed? The scaffold prefixes failures with `Error` and appends a non-zero exit code. */
export function succeeded(call: PastCall): boolean {
  if (call.result === undefined || call.args === null) return false;
  return !/^Error\b/.test(call.result) && !/\[exit code: [1-9]\d*\]\s*$/.test(call.result);
}

/** The fenced code blocks of a Markdown text, in order. */
export function codeBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] | null = null;
  for (const line of markdown.split('\n')) {
    if (line.trimStart().startsWith('```')) {
      if (current) {
        blocks.push(current.join('\n'));
        current = null;
      } else {
        current = [];
      }
      continue;
    }
    current?.push(line);
  }
  return blocks;
}

/** The test shown in the conversation's prompt (minimal scaffold), or null when the tests are hidden. */
export function shownTest(messages: ChatMessage[]): string | null {
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'system') continue;
    const block = codeBlocks(m.content).find((b) => b.includes('def check('));
    if (block !== undefined) return block;
  }
  return null;
}

/** Whether the scaffold offered the abort option: a flag tool (full) or the sentinel in the instructions (minimal). */
export function flagOffered(messages: ChatMessage[], tools: ToolSpec[]): boolean {
  if (tools.some((t) => t.name === FLAG_TOOL_NAME)) return true;
  return messages.some((m) => (m.role === 'system' || m.role === 'user') && m.content.includes(FLAG_SENTINEL));
}

export function lastUserText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return m.content;
  }
  return '';
}
