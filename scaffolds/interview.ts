import type { ChatMessage } from '../core/model.js';
import type { InterviewRecord } from '../core/record.js';
import type { Session } from './session.js';
import { render, shippedTemplates } from './templates.js';
import type { AgentRunInput } from './types.js';

/**
 * The self-report interview (`--interview`): once a sample is graded, its conversation gets one more user turn, the
 * template `interview.question`, and the model's answer is kept. No tool is offered, the sample's limits do not stop
 * it (only an interrupt of the run does), its tokens and cost are kept apart from the sample's, and nothing it says
 * changes the grade.
 */

/** What a result for each call still open says: a provider refuses a conversation whose tool calls went unanswered. */
const NOT_RUN = '(not run: the sample ended before this call)';

/** The conversation as it stood, each tool call left open by a limit answered as not run. */
export function closedConversation(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const answered = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  for (const m of messages) {
    out.push(m);
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      if (!answered.has(call.id)) out.push({ role: 'tool', toolCallId: call.id, name: call.name, content: NOT_RUN });
    }
  }
  return out;
}

export async function interview(session: Session): Promise<InterviewRecord> {
  const { input } = session;
  const question = session.text('interview.question', {});
  const messages = [...closedConversation(session.messages), { role: 'user' as const, content: question }];
  try {
    const g = await input.model.generate(messages, [], { signal: input.signal, ...(input.cacheKey ? { cacheKey: input.cacheKey } : {}) });
    return { question, answer: g.text, inputTokens: g.usage.inputTokens, outputTokens: g.usage.outputTokens, costUsd: g.costUsd };
  } catch (err) {
    if (input.signal.aborted) throw err;
    // A failed interview is said in its record; the sample and its grade stand.
    return { question, answer: '', inputTokens: 0, outputTokens: 0, costUsd: 0, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * An agent program's sample: the program ran its own conversation, and continuing it for one turn is not built yet.
 * The record says so rather than put a question to the model outside the program's session.
 */
export function notInterviewed(input: Pick<AgentRunInput, 'scaffold' | 'templates'>): InterviewRecord {
  return {
    question: render(input.templates ?? shippedTemplates(), 'interview.question', {}),
    answer: '',
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    error: `not interviewed: ${input.scaffold} runs its own session, which is not continued for the interview`,
  };
}
