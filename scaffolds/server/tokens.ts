import type { ChatMessage, ToolSpec } from '../../core/model.js';
import type { PolicyTurn } from '../policies/types.js';

/**
 * The scripted server's token count: one token per four characters (rounded up) plus a few per
 * message, as a rough stand-in for a tokenizer. It is deterministic, so tests and budgets that
 * depend on it are reproducible; it is not any real model's count.
 */
export function approxTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const PER_MESSAGE = 3;

export function countInputTokens(messages: ChatMessage[], tools: ToolSpec[]): number {
  let total = 0;
  for (const m of messages) {
    total += PER_MESSAGE + approxTokens(m.content);
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) total += approxTokens(c.name + c.arguments);
  }
  for (const t of tools) total += approxTokens(JSON.stringify(t));
  return total;
}

export function countOutputTokens(turn: PolicyTurn): number {
  let total = approxTokens(turn.text);
  for (const c of turn.toolCalls ?? []) total += PER_MESSAGE + approxTokens(c.name + c.arguments);
  return Math.max(1, total);
}
