import { fencedBlocks } from '../env/answer.js';
import { SWE_SUBMIT_SENTINEL } from '../env/swe.js';
import type { AgentEnvironment } from '../env/types.js';
import { answerFlagsTask } from '../prompts.js';
import { runBash, toolContext } from '../tools/run.js';
import { type Session, StopSample, closeInWorkdir, openConversation } from './session.js';

const BASH_TAGS = new Set(['bash', 'sh', 'shell']);

/** The commands of a reply: the bodies of its bash-tagged code blocks. */
export function bashCommands(reply: string): string[] {
  return fencedBlocks(reply)
    .filter((b) => BASH_TAGS.has(b.lang))
    .map((b) => b.code);
}

function formatError(session: Session, count: number): string {
  const found = count === 0 ? 'no ```bash code block' : `${count} \`\`\`bash code blocks`;
  return session.text('feedback.bash.format', { found, sentinel: SWE_SUBMIT_SENTINEL });
}

/** Whether a command's output says the agent submitted: the sentinel is its first line, as in mini-SWE-agent. */
function isSubmission(output: string): boolean {
  const first = output.split('\n').find((l) => l.trim() !== '');
  return first?.trim() === SWE_SUBMIT_SENTINEL;
}

/**
 * The minimal scaffold of SWE-style tasks, a bash-only loop in the manner of mini-SWE-agent: each reply is a THOUGHT
 * and one bash block; the command runs in the work dir as the agent's user and its output comes back. A reply with no
 * or several bash blocks gets a format error (no command runs, no attempt is used). Echoing the sentinel submits: the
 * repository is graded and a failure fed back while attempts remain. A run that ends otherwise (a limit) gets one
 * last, uncounted grading of the repository as the agent left it. With the abort option, a reply whose line is the
 * flag sentinel (outside code blocks) ends the sample as flagged.
 */
export async function bashLoop(env: AgentEnvironment, session: Session): Promise<{ stop: StopSample; lastAnswer: string | null }> {
  const { input } = session;
  const ctx = toolContext(env, input.sandbox, input.limits.toolTimeoutMs, session.signal);
  openConversation(session, session.text('system.bash', { sentinel: SWE_SUBMIT_SENTINEL }), 'minimal', env.taskMessage(input.maxAttempts));
  // Whether the repository may differ from what was last graded (nothing was graded yet).
  let ungraded = true;
  try {
    for (;;) {
      const { text } = await session.generate([]);
      if (input.allowFlag && answerFlagsTask(text)) throw new StopSample('flagged');
      const commands = bashCommands(text);
      // A reply whose answer would not fit in the transcript is not acted on.
      if (session.messages.length >= input.limits.maxMessages) throw new StopSample('message_limit');
      if (commands.length !== 1) {
        session.push({ role: 'user', content: formatError(session, commands.length) });
        continue;
      }
      const output = await runBash(ctx, { command: commands[0]! });
      if (!isSubmission(output)) {
        ungraded = true;
        session.push({ role: 'user', content: session.text('feedback.bash.observation', { output }) });
        continue;
      }
      const report = await env.gradeWorkdir(true);
      session.addGrade(report);
      ungraded = false;
      const max = input.maxAttempts;
      if (report.outcome === 'passed') throw new StopSample('submitted');
      if (session.attempts >= max) throw new StopSample('max_attempts');
      session.push({ role: 'user', content: session.text('feedback.bash.failed', { feedback: report.feedback, attempt: session.attempts, max }) });
    }
  } catch (err) {
    return { stop: await closeInWorkdir(err, session, env, ungraded), lastAnswer: null };
  }
}
