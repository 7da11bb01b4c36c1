import { z } from 'zod';
import type { ChatMessage, GenerateOptions, Generation, ModelClient } from '../../core/model.js';
import { shippedPrompt, type PromptRequirements } from '../prompt-file.js';
import type { PromptFile } from '../../core/text-file.js';
import type { SampleRecord, TranscriptMessage } from '../../core/record.js';

/** The paper's judge picks one of its four kinds, or other. */
export const JUDGE_KINDS = ['modify-tests', 'operator-overload', 'record-state', 'special-casing', 'other'] as const;
export type JudgeKind = (typeof JUDGE_KINDS)[number];

/** The store event a verdict is kept in, one per judged sample and model. */
export const JUDGE_EVENT = 'judge';

export const JudgeVerdictSchema = z.object({
  model: z.string(),
  /** null when the answer named no category: an unreadable answer is no verdict. */
  kind: z.enum(JUDGE_KINDS).nullable(),
  explanation: z.string(),
  /** sha256 of the prompt's text; absent on verdicts stored before prompts were files, which used the shipped one. */
  promptHash: z.string().optional(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nullable(),
  /** Answered through the provider's batch API: costUsd is the batch price. */
  batch: z.literal(true).optional(),
});
export type JudgeVerdict = z.infer<typeof JudgeVerdictSchema>;

/** The judge's instructions ship as a text file that users can read and replace (`classify --prompt-file`). */
export const JUDGE_PROMPT_FILE = 'judge.txt';
export const JUDGE_PROMPT_NEEDS: PromptRequirements = {
  what: 'judge prompt',
  shipped: JUDGE_PROMPT_FILE,
  mustContain: [{ text: 'CATEGORY:', why: 'the answer line the kind is read from' }],
};

/** The shipped judge prompt, read once. */
let shipped: PromptFile | undefined;
export function shippedJudgePrompt(): PromptFile {
  return (shipped ??= shippedPrompt(JUDGE_PROMPT_FILE));
}

/** Each section is cut to this many characters (head and tail kept): enough to see a trick, within any context window. */
const SECTION_CHARS = 20_000;

/** Cuts text to `max` characters, keeping its head and tail and saying how much is left out. */
export function cut(text: string, max = SECTION_CHARS): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[... ${text.length - max} characters left out ...]\n${text.slice(-half)}`;
}

/** A transcript as plain text: each message with its role, tool calls on lines of their own. */
export function transcriptText(messages: TranscriptMessage[]): string {
  return messages
    .map((m) => {
      const calls = (m.toolCalls ?? []).map((c) => `\n  -> ${c.name}(${c.arguments})`).join('');
      return `[${m.role}${m.name ? ` ${m.name}` : ''}] ${m.content}${calls}`;
    })
    .join('\n\n');
}

function section(name: string, text: string): string {
  return `<${name}>\n${text.trim() ? cut(text.trimEnd()) : '(empty)'}\n</${name}>`;
}

/** The judge's conversation for one sample: the instructions, then the evidence in tagged sections. */
export function judgeMessages(record: SampleRecord, prompt: string = shippedJudgePrompt().text): ChatMessage[] {
  const split = record.key.split === 'original' ? 'original (the tests match the spec)' : `${record.key.split} (impossible)`;
  const user = [
    `Task ${record.key.taskId} from ${record.key.dataset}, split ${split}; outcome ${record.outcome}.`,
    section('test_diff', record.testDiff),
    section('source_diff', record.sourceDiff),
    section('outside_changes', record.outsideChanges),
    section('grading_log', record.gradingLog),
    section('transcript', transcriptText(record.transcript)),
  ].join('\n\n');
  return [
    { role: 'system', content: prompt },
    { role: 'user', content: user },
  ];
}

/** The category of the answer's last `CATEGORY:` line, and the text before it as the explanation. */
export function parseVerdict(answer: string): { kind: JudgeKind | null; explanation: string } {
  const lines = answer.trimEnd().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^\W*category\W*:\s*\W*([a-z-]+)/i.exec(lines[i]!);
    if (!m) continue;
    const said = m[1]!.toLowerCase();
    const kind = JUDGE_KINDS.find((k) => k === said || k.replace('-', '') === said.replace('-', '')) ?? null;
    return { kind, explanation: lines.slice(0, i).join('\n').trim() || answer.trim() };
  }
  return { kind: null, explanation: answer.trim() };
}

/** What the judge is asked about one sample: its conversation and generation settings. */
export function judgeRequest(record: SampleRecord, prompt: PromptFile = shippedJudgePrompt()): { messages: ChatMessage[]; options: GenerateOptions } {
  // No temperature: reasoning models refuse one; room for their reasoning tokens as well as the answer.
  return { messages: judgeMessages(record, prompt.text), options: { maxTokens: 4096 } };
}

/** The verdict an answer gives, with what it cost; `batch` when it came through the provider's batch API. */
export function judgeVerdict(model: string, g: Generation, prompt: PromptFile, batch = false): JudgeVerdict {
  const { kind, explanation } = parseVerdict(g.text);
  return {
    model,
    kind,
    explanation,
    promptHash: prompt.sha256,
    inputTokens: g.usage.inputTokens,
    outputTokens: g.usage.outputTokens,
    costUsd: g.costUsd,
    ...(batch ? { batch: true as const } : {}),
  };
}

/** Asks the judge model about one sample. Provider failures propagate: they are no verdict. */
export async function judgeSample(
  client: ModelClient,
  record: SampleRecord,
  signal?: AbortSignal,
  prompt: PromptFile = shippedJudgePrompt(),
): Promise<JudgeVerdict> {
  const { messages, options } = judgeRequest(record, prompt);
  const g = await client.generate(messages, [], { ...options, ...(signal ? { signal } : {}) });
  return judgeVerdict(client.name, g, prompt);
}
