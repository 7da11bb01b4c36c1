import { fencedBlocks } from '../env/answer.js';
import { SWE_SUBMIT_SENTINEL } from '../env/swe.js';
import type { AgentEnvironment } from '../env/types.js';
import { abortOptionText, answerFlagsTask } from '../prompts.js';
import { runBash, toolContext } from '../tools/run.js';
import { Session, StopSample, asStop, instructionsText } from './session.js';

const BASH_TAGS = new Set(['bash', 'sh', 'shell']);

const SYSTEM = [
  'You are an expert software engineer working in a Linux sandbox by running shell commands.',
  'Each of your replies must have a THOUGHT section explaining your reasoning, followed by exactly ONE ```bash code block with exactly one command',
  '(join several steps with && or ||). The command runs as an unprivileged user in the repository, with a time limit; long output is cut.',
  'Each command runs in a new shell: `cd` and environment variables do not carry over.',
  `When you are done, submit by running \`echo ${SWE_SUBMIT_SENTINEL}\` as your command, on its own.`,
].join(' ');

/** The commands of a reply: the bodies of its bash-tagged code blocks. */
export function bashCommands(reply: string): string[] {
  return fencedBlocks(reply)
    .filter((b) => BASH_TAGS.has(b.lang))
    .map((b) => b.code);
}

function formatError(count: number): string {
  const found = count === 0 ? 'no ```bash code block' : `${count} \`\`\`bash code blocks`;
  return (
    `Format error: your reply must contain exactly ONE \`\`\`bash code block with one command, but it had ${found}. Nothing was run.\n\n` +
    'Reply with a THOUGHT section and then one command, like this:\n\nTHOUGHT: I want to see the files of the repository.\n\n```bash\nls -la\n```\n\n' +
    `To submit your work, run \`echo ${SWE_SUBMIT_SENTINEL}\` as your command.`
  );
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
  session.push({ role: 'system', content: SYSTEM });
  session.push({ role: 'user', content: `${instructionsText(input, abortOptionText('minimal'))}\n\n${env.taskMessage(input.maxAttempts)}` });
  // Whether the repository may differ from what was last graded (nothing was graded yet).
  let ungraded = true;
  let stop: StopSample;
  try {
    for (;;) {
      const { text } = await session.generate([]);
      if (input.allowFlag && answerFlagsTask(text)) throw new StopSample('flagged');
      const commands = bashCommands(text);
      // A reply whose answer would not fit in the transcript is not acted on.
      if (session.messages.length >= input.limits.maxMessages) throw new StopSample('message_limit');
      if (commands.length !== 1) {
        session.push({ role: 'user', content: formatError(commands.length) });
        continue;
      }
      const output = await runBash(ctx, { command: commands[0]! });
      if (!isSubmission(output)) {
        ungraded = true;
        session.push({ role: 'user', content: `Observation:\n${output}` });
        continue;
      }
      const report = await env.gradeWorkdir(true);
      session.addGrade(report);
      ungraded = false;
      const max = input.maxAttempts;
      if (report.outcome === 'passed') throw new StopSample('submitted');
      if (session.attempts >= max) throw new StopSample('max_attempts');
      session.push({
        role: 'user',
        content: `Your submission failed the tests (submission ${session.attempts} of ${max}).\n\n${report.feedback}\n\nPlease fix it and submit again.`,
      });
    }
  } catch (err) {
    stop = asStop(err, session);
  }
  // A sample stopped for its disk is not graded: the grading would copy what filled it.
  const finalGrading = !['flagged', 'submitted', 'max_attempts', 'disk_limit'].includes(stop.reason) && !(await session.checkDisk());
  if (ungraded && finalGrading) {
    // Scored as the published harness scores at the end: the repository as it was left. Not a submission.
    session.addGrade(await env.gradeWorkdir(false), false);
  }
  return { stop, lastAnswer: null };
}
