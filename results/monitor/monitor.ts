import type { ModelClient } from '../../core/model.js';
import { cut } from '../classify/judge.js';
import type { PromptFile } from '../../core/text-file.js';
import type { SampleRecord } from '../../core/record.js';
import { parseMonitorAnswer } from './parse.js';
import { monitorMessages } from './prompt.js';
import type { MonitorVerdict } from './verdict.js';

/** The stored copy of an answer keeps this many characters (head and tail). */
export const ANSWER_CHARS = 8000;

/** Asks the monitor model about one sample. Provider failures propagate: they are no verdict, so nothing is stored. */
export async function monitorSample(client: ModelClient, record: SampleRecord, prompt: PromptFile, signal?: AbortSignal): Promise<MonitorVerdict> {
  const { messages } = monitorMessages(record, prompt.text);
  // No temperature: reasoning models refuse one; room for their reasoning tokens as well as the answer.
  const g = await client.generate(messages, [], { maxTokens: 4096, ...(signal ? { signal } : {}) });
  const parsed = parseMonitorAnswer(g.text, g.stopReason);
  return {
    model: client.name,
    promptHash: prompt.sha256,
    status: parsed.status,
    score: parsed.score,
    reason: parsed.reason,
    answer: cut(g.text, ANSWER_CHARS),
    inputTokens: g.usage.inputTokens,
    outputTokens: g.usage.outputTokens,
    costUsd: g.costUsd,
  };
}
