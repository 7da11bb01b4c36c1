import type { ChatMessage, ToolSpec } from '../../core/model.js';
import type { PolicyTurn } from '../policy.js';

/**
 * The scripted server's token count: one token per four characters (rounded up) plus a few per
 * message, as a rough stand-in for a tokenizer. It is deterministic, so tests and budgets that
 * depend on it are reproducible; it is not any real model's count.
 */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const PER_MESSAGE = 3;

/** One message's share of the input count. */
export function messageTokens(m: ChatMessage): number {
  let total = PER_MESSAGE + approxTokens(m.content);
  if (m.role === 'assistant') for (const c of m.toolCalls ?? []) total += approxTokens(c.name + c.arguments);
  return total;
}

/** The tool definitions' share of the input count. */
export function toolsTokens(tools: ToolSpec[]): number {
  return tools.reduce((n, t) => n + approxTokens(JSON.stringify(t)), 0);
}

export function countInputTokens(messages: ChatMessage[], tools: ToolSpec[]): number {
  return messages.reduce((n, m) => n + messageTokens(m), toolsTokens(tools));
}

export function countOutputTokens(turn: PolicyTurn): number {
  let total = approxTokens(turn.text);
  for (const c of turn.toolCalls ?? []) total += PER_MESSAGE + approxTokens(c.name + c.arguments);
  return Math.max(1, total);
}
