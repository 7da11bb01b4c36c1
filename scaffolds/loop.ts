import type { z } from 'zod';
import { ModelApiError, type Generation, type ToolCall, type ToolSpec } from '../core/model.js';
import type { ScaffoldName } from '../core/record.js';
import { fencedBlocks } from './env/answer.js';
import { SWE_SUBMIT_SENTINEL } from './env/swe.js';
import type { AgentEnvironment } from './env/types.js';
import { abortOptionText, answerFlagsTask, FLAG_TOOL_NAME, instructionsText } from './prompts.js';
import { type Session, StopSample } from './session.js';
import { describeArgsError, runBash, runEditor, runPython, toolContext, type ToolContext } from './tools/run.js';
import { SUBMIT_TOOL, ToolArgs, toolSpecs, type ToolName } from './tools/specs.js';
import { scaffoldKind } from './kinds/registry.js';

/*
 * The agent loop, in the manner of mini-SWE-agent: `runLoop` opens the conversation and takes `step`s until a
 * `StopSample` ends the sample. Each step is a model turn (`session.generate`) and what the scaffold makes of it: the
 * answer it grades, the command or tool calls it runs, and the observation the model reads next. A `FormatError` is a
 * reply that cannot be acted on: its message goes back to the model; nothing ran and no attempt was used.
 *
 * - minimal (LiveCodeBench): no tools; each answer's last python code block is graded.
 * - bash (the minimal scaffold of SWE-style tasks): each reply is a THOUGHT and one bash block, run in the repository;
 *   echoing the submit sentinel submits.
 * - full: tool calls (bash, python, text_editor, think, submit, and flag_for_human when offered).
 * Each submission is graded and a failure fed back, until the tests pass, the attempts run out, or a limit is hit. A
 * loop over a work dir (bash, full) that ends for a limit with changes no grading has seen grades them once more.
 */

/** A reply the loop cannot act on, carrying what the model is told. */
export class FormatError extends Error {
  override readonly name = 'FormatError';
}

type ScaffoldKind = 'minimal' | 'bash' | 'full';

/** One agent run in the loop: its environment and session, and what the loop knows of the work. */
interface Run {
  readonly env: AgentEnvironment;
  readonly session: Session;
  readonly kind: ScaffoldKind;
  readonly tools: ToolSpec[];
  readonly ctx: ToolContext;
  /** The task as the first message gave it (the minimal scaffold repeats it with each failure). */
  readonly task: string;
  /** Whether the work dir may differ from what was last graded (nothing was graded yet). */
  ungraded: boolean;
  /** The minimal scaffold's last answer: the final submission, for the evidence. */
  lastAnswer: string | null;
}

/** Runs the scaffold's loop to its end: the stop, and the final submission of the minimal scaffold. */
export async function runLoop(env: AgentEnvironment, session: Session): Promise<{ stop: StopSample; lastAnswer: string | null }> {
  const { input } = session;
  // A task with no answer to grade (a repository) has a bash-only loop as its minimal scaffold.
  const kind: ScaffoldKind = input.scaffold === 'full' ? 'full' : scaffoldKind(input.task).minimalLoop === 'bash' ? 'bash' : 'minimal';
  const timeoutS = Math.round(input.limits.toolTimeoutMs / 1000);
  const tools = kind === 'full' ? toolSpecs({ allowFlag: input.allowFlag, timeoutS, templates: session.templates }) : [];
  const ctx = toolContext(env, input.sandbox, input.limits.toolTimeoutMs, session.signal);
  const task = env.taskMessage(input.maxAttempts);
  const run: Run = { env, session, kind, tools, ctx, task, ungraded: true, lastAnswer: null };
  const system =
    kind === 'full'
      ? session.text('system.full', {})
      : kind === 'bash'
        ? session.text('system.bash', { sentinel: SWE_SUBMIT_SENTINEL })
        : session.text('system.minimal', {});
  openConversation(session, system, kind === 'full' ? 'full' : 'minimal', task);
  try {
    for (;;) await step(run);
  } catch (err) {
    return { stop: kind === 'minimal' ? asStop(err, session) : await closeInWorkdir(err, run), lastAnswer: run.lastAnswer };
  }
}

/** One turn: the model's reply (query), what it asks for (action), and what the model reads next (observation). */
async function step(run: Run): Promise<void> {
  const generation = await run.session.generate(run.tools);
  try {
    if (run.kind === 'minimal') await gradeAnswer(run, generation);
    else if (run.kind === 'bash') await runCommand(run, generation);
    else await runToolCalls(run, generation);
  } catch (err) {
    if (!(err instanceof FormatError)) throw err;
    run.session.push({ role: 'user', content: run.session.withBudget(err.message) });
  }
}

/**
 * How every loop opens: the system prompt, then one user message with the instructions (with the abort option, in
 * the wording of `abortFor`'s scaffold, when it is offered) and the task.
 */
function openConversation(session: Session, system: string, abortFor: ScaffoldName, task: string): void {
  session.push({ role: 'system', content: system });
  session.push({ role: 'user', content: `${instructionsText(session.input, abortOptionText(abortFor, session.templates))}\n\n${task}` });
}

/** Stops the sample (message_limit) when the transcript has no room for what the loop would add next. */
function needRoom(session: Session): void {
  if (session.messages.length >= session.input.limits.maxMessages) throw new StopSample('message_limit');
}

/** The minimal scaffold: the answer's last python code block is graded; a failure is answered with the error and the task. */
async function gradeAnswer(run: Run, { text }: Generation): Promise<void> {
  const { env, session } = run;
  const { input } = session;
  if (input.allowFlag && answerFlagsTask(text)) throw new StopSample('flagged');
  run.lastAnswer = text;
  const report = await env.gradeAnswer(text);
  session.addGrade(report);
  if (report.outcome === 'passed') throw new StopSample('submitted');
  if (session.attempts >= input.maxAttempts) throw new StopSample('max_attempts');
  needRoom(session);
  session.push({ role: 'user', content: session.text('feedback.minimal.failed', { feedback: report.feedback, task: run.task }) });
}

const BASH_TAGS = new Set(['bash', 'sh', 'shell']);

/** The commands of a reply: the bodies of its bash-tagged code blocks. */
export function bashCommands(reply: string): string[] {
  return fencedBlocks(reply)
    .filter((b) => BASH_TAGS.has(b.lang))
    .map((b) => b.code);
}

/** Whether a command's output says the agent submitted: the sentinel is its first line, as in mini-SWE-agent. */
function isSubmission(output: string): boolean {
  const first = output.split('\n').find((l) => l.trim() !== '');
  return first?.trim() === SWE_SUBMIT_SENTINEL;
}

/**
 * The bash scaffold: the reply's one bash block runs in the work dir as the agent's user and its output comes back; a
 * command whose output starts with the sentinel submits. With the abort option, a reply whose line is the flag
 * sentinel (outside code blocks) ends the sample as flagged.
 */
async function runCommand(run: Run, { text }: Generation): Promise<void> {
  const { env, session } = run;
  const { input } = session;
  if (input.allowFlag && answerFlagsTask(text)) throw new StopSample('flagged');
  const commands = bashCommands(text);
  // A reply whose answer would not fit in the transcript is not acted on.
  needRoom(session);
  if (commands.length !== 1) {
    const found = commands.length === 0 ? 'no ```bash code block' : `${commands.length} \`\`\`bash code blocks`;
    throw new FormatError(session.text('feedback.bash.format', { found, sentinel: SWE_SUBMIT_SENTINEL }));
  }
  const output = await runBash(run.ctx, { command: commands[0]! });
  if (!isSubmission(output)) {
    run.ungraded = true;
    session.push({ role: 'user', content: session.withBudget(session.text('feedback.bash.observation', { output })) });
    return;
  }
  const report = await env.gradeWorkdir(true);
  session.addGrade(report);
  run.ungraded = false;
  const max = input.maxAttempts;
  if (report.outcome === 'passed') throw new StopSample('submitted');
  if (session.attempts >= max) throw new StopSample('max_attempts');
  session.push({
    role: 'user',
    content: session.withBudget(session.text('feedback.bash.failed', { feedback: report.feedback, attempt: session.attempts, max })),
  });
}

/** What a tool call did: its result, whether it ended the sample, and what became of the work dir. */
interface CallEnd {
  result: string;
  stop?: StopSample;
  /** true: the work dir may have changed since it was last graded; false: it was just graded; unset: no effect. */
  changed?: boolean;
}

/** The full scaffold: each tool call runs and its result comes back; a reply without one is nudged to call a tool. */
async function runToolCalls(run: Run, generation: Generation): Promise<void> {
  const { session } = run;
  if (generation.toolCalls.length === 0) {
    needRoom(session);
    session.push({ role: 'user', content: session.text('feedback.full.nudge', { tool: SUBMIT_TOOL }) });
    return;
  }
  for (const call of generation.toolCalls) {
    // A call whose result would not fit in the transcript is not run.
    needRoom(session);
    const end = await runCall(run, call).catch((err: unknown): CallEnd => {
      // A bad call is answered in its own result.
      if (err instanceof FormatError) return { result: err.message };
      throw err;
    });
    session.push({ role: 'tool', toolCallId: call.id, name: call.name, content: session.withBudget(end.result) });
    if (end.changed !== undefined) run.ungraded = end.changed;
    if (end.stop) throw end.stop;
  }
}

/** A call's arguments as its tool takes them; a FormatError saying what is wrong with them otherwise. */
function argsOf<N extends ToolName>(name: N, raw: unknown): z.infer<(typeof ToolArgs)[N]> {
  const args = ToolArgs[name].safeParse(raw);
  if (!args.success) throw new FormatError(describeArgsError(name, args.error));
  return args.data as z.infer<(typeof ToolArgs)[N]>;
}

function isToolName(name: string): name is ToolName {
  return Object.hasOwn(ToolArgs, name);
}

/** Parses a call's JSON arguments, refusing an unknown tool or a bad JSON text with a FormatError. */
function rawArgs(run: Run, call: ToolCall): unknown {
  const flagOffered = run.tools.some((t) => t.name === FLAG_TOOL_NAME);
  if (!isToolName(call.name) || (call.name === FLAG_TOOL_NAME && !flagOffered)) {
    const names = ['bash', 'python', 'text_editor', 'think', SUBMIT_TOOL, ...(flagOffered ? [FLAG_TOOL_NAME] : [])];
    throw new FormatError(`Error: there is no tool named '${call.name}'. The tools are: ${names.join(', ')}.`);
  }
  try {
    return call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new FormatError(
      `Error: the arguments of your ${call.name} call are not valid JSON (${why}). Nothing ran; call the tool again with a JSON object.`,
    );
  }
}

async function runCall(run: Run, call: ToolCall): Promise<CallEnd> {
  const raw = rawArgs(run, call);
  const { session } = run;
  switch (call.name as ToolName) {
    case 'bash':
      return { result: await runBash(run.ctx, argsOf('bash', raw)), changed: true };
    case 'python':
      return { result: await runPython(run.ctx, argsOf('python', raw)), changed: true };
    case 'text_editor': {
      const args = argsOf('text_editor', raw);
      const result = await runEditor(run.ctx, args);
      return args.command === 'view' ? { result } : { result, changed: true };
    }
    case 'think':
      argsOf('think', raw);
      return { result: 'Thought recorded.' };
    case FLAG_TOOL_NAME:
      return { result: 'The task was flagged for human intervention.', stop: new StopSample('flagged') };
    case SUBMIT_TOOL: {
      const report = await run.env.gradeWorkdir(true);
      session.addGrade(report);
      const { attempts } = session;
      const max = session.input.maxAttempts;
      if (report.outcome === 'passed') return { result: 'All tests passed.', stop: new StopSample('submitted'), changed: false };
      const vars = { feedback: report.feedback, attempt: attempts, max };
      if (attempts >= max) return { result: session.text('feedback.full.last', vars), stop: new StopSample('max_attempts'), changed: false };
      return { result: session.text('feedback.full.failed', vars), changed: false };
    }
  }
}

/**
 * A loop's way out: a StopSample as it is; anything thrown because the sample's time ran out (an aborted model call or
 * command) as the time limit; anything else (API, sandbox, grading failures, interrupts) goes on up.
 */
function asStop(err: unknown, session: Session): StopSample {
  if (err instanceof StopSample) return err;
  // An unanswered model call is the infrastructure's failure whatever limit came with it.
  if (err instanceof ModelApiError) throw err;
  if (session.stopped && !session.input.signal.aborted) return session.stopped;
  throw err;
}

/**
 * How the loops over a work dir (full, bash) end: the stop the loop ran into and, when it ended for a limit with
 * changes no grading has seen, one last grading of the work dir as the agent left it (scored as the published harness
 * scores the final state; not a submission). A sample stopped for its disk is not graded: the grading would copy what
 * filled it.
 */
async function closeInWorkdir(err: unknown, { session, env, ungraded }: Run): Promise<StopSample> {
  const stop = asStop(err, session);
  const finalGrading = !['flagged', 'submitted', 'max_attempts', 'disk_limit'].includes(stop.reason) && !(await session.checkDisk());
  if (ungraded && finalGrading) session.addGrade(await env.gradeWorkdir(false), false);
  return stop;
}
