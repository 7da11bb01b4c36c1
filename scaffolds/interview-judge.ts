import type { ModelClient } from '../core/model.js';
import { INTERVIEW_READINGS, type InterviewReading, type InterviewRecord } from '../core/record.js';
import { render, shippedTemplates, type Templates } from './templates.js';

/**
 * The judge's reading of an interview answer (`--interview-judge MODEL`): the judge model is sent the template
 * `interview.judge` with the question and the answer, no tools, and its reply's last `READING:` line is kept next to
 * the rules' reading, never in place of it. Its tokens and cost are its own, and a judge that fails says so in its
 * record: the sample, its grade and the answer stand.
 */
export type InterviewJudgeRecord = NonNullable<InterviewRecord['judge']>;

const READING_LINE = new RegExp(`^\\W*READING\\W*:\\W*(${INTERVIEW_READINGS.join('|')})\\b`, 'i');

/** The reading a judge's reply ends with (its last non-empty line); null when that line names none of the three. */
export function parseReading(reply: string): InterviewReading | null {
  const last = reply
    .split('\n')
    .map((l) => l.trim())
    .findLast((l) => l !== '');
  const match = last?.match(READING_LINE);
  return match ? (match[1]!.toLowerCase() as InterviewReading) : null;
}

export interface InterviewJudgeInput {
  judge: ModelClient;
  templates?: Templates;
  signal: AbortSignal;
}

export async function judgeInterview(
  interview: Pick<InterviewRecord, 'question' | 'answer'>,
  input: InterviewJudgeInput,
): Promise<InterviewJudgeRecord> {
  const { judge, signal } = input;
  const prompt = render(input.templates ?? shippedTemplates(), 'interview.judge', { question: interview.question, answer: interview.answer });
  try {
    const g = await judge.generate([{ role: 'user', content: prompt }], [], { signal });
    return {
      model: judge.name,
      reading: parseReading(g.text),
      text: g.text,
      inputTokens: g.usage.inputTokens,
      outputTokens: g.usage.outputTokens,
      costUsd: g.costUsd,
    };
  } catch (err) {
    // An interrupt of the run stops it here as anywhere; any other failure is the judge's, kept in its record.
    if (signal.aborted) throw err;
    const error = err instanceof Error ? err.message : String(err);
    return { model: judge.name, reading: null, text: '', inputTokens: 0, outputTokens: 0, costUsd: 0, error };
  }
}
