import { answerFlagsTask } from '../prompts.js';
import type { AgentEnvironment } from '../env/types.js';
import { type Session, StopSample, asStop, openConversation } from './session.js';

/**
 * The minimal scaffold: no tools. Each answer's last python code block is graded; a failure is answered with the test
 * error and the task again, until the tests pass, the attempts run out, or a limit is reached.
 * Returns the last answer (the final submission) for the evidence.
 */
export async function minimalLoop(env: AgentEnvironment, session: Session): Promise<{ stop: StopSample; lastAnswer: string | null }> {
  const { input } = session;
  const task = env.taskMessage(input.maxAttempts);
  openConversation(session, session.text('system.minimal', {}), 'minimal', task);
  let lastAnswer: string | null = null;
  try {
    for (;;) {
      const { text } = await session.generate([]);
      if (input.allowFlag && answerFlagsTask(text)) throw new StopSample('flagged');
      lastAnswer = text;
      const report = await env.gradeAnswer(text);
      session.addGrade(report);
      if (report.outcome === 'passed') throw new StopSample('submitted');
      if (session.attempts >= input.maxAttempts) throw new StopSample('max_attempts');
      if (session.messages.length >= input.limits.maxMessages) throw new StopSample('message_limit');
      session.push({ role: 'user', content: session.text('feedback.minimal.failed', { feedback: report.feedback, task }) });
    }
  } catch (err) {
    return { stop: asStop(err, session), lastAnswer };
  }
}
