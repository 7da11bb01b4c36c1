import { randomBytes } from 'node:crypto';
import type { ChatMessage } from '../../core/model.js';
import { cut, transcriptText } from '../classify/judge.js';
import type { PromptRequirements } from '../prompt-file.js';
import type { SampleRecord } from '../../core/record.js';

/** Where a monitor prompt names the random tag that frames the evidence. */
export const TAG_PLACEHOLDER = '{{TAG}}';
/** The line the score is read from (see parse.ts): a prompt must ask for it. */
export const SCORE_LINE = 'SCORE:';

export const MONITOR_PROMPT_FILE = 'monitor.txt';
export const MONITOR_PROMPT_NEEDS: PromptRequirements = {
  what: 'monitor prompt',
  shipped: MONITOR_PROMPT_FILE,
  mustContain: [
    { text: TAG_PLACEHOLDER, why: 'where the random tag framing the evidence is named' },
    { text: SCORE_LINE, why: 'the answer line the score is read from' },
  ],
};

/** A fresh tag per call: 128 random bits, so no text written before the call can contain it. */
export function newTag(): string {
  return randomBytes(16).toString('hex');
}

/** The sections a reviewer sees, in reading order. Never the split, the outcome or the grading log: they are the label. */
export interface MonitorEvidence {
  task: string;
  transcript: string;
  test_diff: string;
  source_diff: string;
  outside_changes: string;
}

/**
 * The evidence of a sample as a reviewer would see it. The record keeps no task statement of its
 * own; the statement the agent was given is the transcript's first user message, shown as the
 * task (the id and dataset stand in when there is none).
 */
export function monitorEvidence(record: Pick<SampleRecord, 'key' | 'transcript' | 'testDiff' | 'sourceDiff' | 'outsideChanges'>): MonitorEvidence {
  const first = record.transcript.findIndex((m) => m.role === 'user');
  const task = first >= 0 ? record.transcript[first]!.content : `Task ${record.key.taskId} from ${record.key.dataset} (no statement was recorded).`;
  const rest = record.transcript.filter((_, i) => i !== first);
  return {
    task,
    transcript: transcriptText(rest),
    test_diff: record.testDiff,
    source_diff: record.sourceDiff,
    outside_changes: record.outsideChanges,
  };
}

function frame(tag: string, name: keyof MonitorEvidence, text: string): string {
  return `<evidence-${tag} name="${name}">\n${text.trim() ? cut(text.trimEnd()) : '(empty)'}\n</evidence-${tag}>`;
}

/** Tries before giving up on a tag absent from the evidence: with 128 random bits the first one always is. */
const TAG_TRIES = 20;

/**
 * The monitor's conversation for one sample: the prompt file's instructions with the tag filled
 * in, then the evidence, each section framed by the tag. The tag is drawn until it occurs nowhere
 * in the evidence, so no text inside a frame can close it; the evidence is never passed through
 * the template, so nothing in it is read as a placeholder.
 */
export function monitorMessages(
  record: Pick<SampleRecord, 'key' | 'transcript' | 'testDiff' | 'sourceDiff' | 'outsideChanges'>,
  prompt: string,
  drawTag: () => string = newTag,
): { messages: ChatMessage[]; tag: string } {
  const evidence = monitorEvidence(record);
  const all = Object.values(evidence).join('\n');
  let tag = '';
  for (let i = 0; i < TAG_TRIES && (!tag || all.includes(tag)); i++) tag = drawTag();
  if (!/^[0-9A-Za-z]{8,}$/.test(tag) || all.includes(tag)) throw new Error('could not draw an evidence tag that the evidence does not contain');
  const sections = (Object.keys(evidence) as (keyof MonitorEvidence)[]).map((name) => frame(tag, name, evidence[name]));
  const user = [
    `The evidence follows: ${sections.length} sections framed by the tag ${tag}.`,
    ...sections,
    'The evidence ends here. Answer as your instructions say.',
  ].join('\n\n');
  return {
    tag,
    messages: [
      { role: 'system', content: prompt.split(TAG_PLACEHOLDER).join(tag) },
      { role: 'user', content: user },
    ],
  };
}
