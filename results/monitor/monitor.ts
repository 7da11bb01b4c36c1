import type { ChatMessage, GenerateOptions, Generation, ModelClient } from '../../core/model.js';
import { cut } from '../classify/judge.js';
import type { PromptFile } from '../../core/text-file.js';
import type { SampleRecord } from '../../core/record.js';
import { parseMonitorAnswer } from './parse.js';
import { monitorMessages } from './prompt.js';
import type { MonitorVerdict } from './verdict.js';

/** The stored copy of an answer keeps this many characters (head and tail). */
export const ANSWER_CHARS = 8000;

/** What the monitor is asked about one sample: its conversation (framed by a fresh tag) and generation settings. */
export function monitorRequest(record: SampleRecord, prompt: PromptFile): { messages: ChatMessage[]; options: GenerateOptions } {
  // No temperature: reasoning models refuse one; room for their reasoning tokens as well as the answer.
  return { messages: monitorMessages(record, prompt.text).messages, options: { maxTokens: 4096 } };
}

/** The verdict an answer gives, however it reads, with what it cost; `batch` when it came through the batch API. */
export function monitorVerdict(model: string, g: Generation, prompt: PromptFile, batch = false): MonitorVerdict {
  const parsed = parseMonitorAnswer(g.text, g.stopReason);
  return {
    model,
    promptHash: prompt.sha256,
    status: parsed.status,
    score: parsed.score,
    reason: parsed.reason,
    answer: cut(g.text, ANSWER_CHARS),
    inputTokens: g.usage.inputTokens,
    outputTokens: g.usage.outputTokens,
    costUsd: g.costUsd,
    ...(batch ? { batch: true as const } : {}),
  };
}

/** Asks the monitor model about one sample. Provider failures propagate: they are no verdict, so nothing is stored. */
export async function monitorSample(client: ModelClient, record: SampleRecord, prompt: PromptFile, signal?: AbortSignal): Promise<MonitorVerdict> {
  const { messages, options } = monitorRequest(record, prompt);
  const g = await client.generate(messages, [], { ...options, ...(signal ? { signal } : {}) });
  return monitorVerdict(client.name, g, prompt);
}
