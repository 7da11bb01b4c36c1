import type { ToolCall } from '../../core/model.js';
import { FLAG_TOOL_NAME } from '../prompts.js';
import type { AgentEnvironment } from '../env/types.js';
import { runBash, runEditor, runPython, describeArgsError, toolContext, type ToolContext } from '../tools/run.js';
import { SUBMIT_TOOL, ToolArgs, toolSpecs, type ToolName } from '../tools/specs.js';
import { type Session, StopSample, closeInWorkdir, openConversation } from './session.js';

/** What a tool call did to the loop: its result, whether it ended the sample, and what became of the work dir. */
interface CallEnd {
  result: string;
  stop?: StopSample;
  /** true: the work dir may have changed since it was last graded; false: it was just graded; unset: no effect. */
  changed?: boolean;
}

function isToolName(name: string): name is ToolName {
  return Object.hasOwn(ToolArgs, name);
}

/**
 * The full scaffold: tool calls (bash, python, text_editor, think, submit, and flag_for_human when offered). Each
 * submit grades the work dir and a failure is fed back, until the tests pass, the attempts run out, or a limit is hit.
 * A run that ends without a graded final state gets one last grading of the work dir, as the agent left it.
 */
export async function fullLoop(env: AgentEnvironment, session: Session): Promise<{ stop: StopSample }> {
  const { input } = session;
  const tools = toolSpecs({ allowFlag: input.allowFlag, timeoutS: Math.round(input.limits.toolTimeoutMs / 1000), templates: session.templates });
  const ctx = toolContext(env, input.sandbox, input.limits.toolTimeoutMs, session.signal);
  openConversation(session, session.text('system.full', {}), 'full', env.taskMessage(input.maxAttempts));
  // Whether the work dir may differ from what was last graded (nothing was graded yet).
  let ungraded = true;
  try {
    for (;;) {
      const generation = await session.generate(tools);
      if (generation.toolCalls.length === 0) {
        if (session.messages.length >= input.limits.maxMessages) throw new StopSample('message_limit');
        session.push({ role: 'user', content: session.text('feedback.full.nudge', { tool: SUBMIT_TOOL }) });
        continue;
      }
      for (const call of generation.toolCalls) {
        // A call whose result would not fit in the transcript is not run.
        if (session.messages.length >= input.limits.maxMessages) throw new StopSample('message_limit');
        const end = await runCall(
          call,
          env,
          session,
          ctx,
          tools.some((t) => t.name === FLAG_TOOL_NAME),
        );
        session.push({ role: 'tool', toolCallId: call.id, name: call.name, content: end.result });
        if (end.changed !== undefined) ungraded = end.changed;
        if (end.stop) throw end.stop;
      }
    }
  } catch (err) {
    return { stop: await closeInWorkdir(err, session, env, ungraded) };
  }
}

async function runCall(call: ToolCall, env: AgentEnvironment, session: Session, ctx: ToolContext, flagOffered: boolean): Promise<CallEnd> {
  if (!isToolName(call.name) || (call.name === FLAG_TOOL_NAME && !flagOffered)) {
    const names = ['bash', 'python', 'text_editor', 'think', SUBMIT_TOOL, ...(flagOffered ? [FLAG_TOOL_NAME] : [])];
    return { result: `Error: there is no tool named '${call.name}'. The tools are: ${names.join(', ')}.` };
  }
  let raw: unknown;
  try {
    raw = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      result: `Error: the arguments of your ${call.name} call are not valid JSON (${why}). Nothing ran; call the tool again with a JSON object.`,
    };
  }
  const name = call.name;
  switch (name) {
    case 'bash': {
      const args = ToolArgs.bash.safeParse(raw);
      return args.success ? { result: await runBash(ctx, args.data), changed: true } : { result: describeArgsError(name, args.error) };
    }
    case 'python': {
      const args = ToolArgs.python.safeParse(raw);
      return args.success ? { result: await runPython(ctx, args.data), changed: true } : { result: describeArgsError(name, args.error) };
    }
    case 'text_editor': {
      const args = ToolArgs.text_editor.safeParse(raw);
      if (!args.success) return { result: describeArgsError(name, args.error) };
      const result = await runEditor(ctx, args.data);
      return args.data.command === 'view' ? { result } : { result, changed: true };
    }
    case 'think': {
      const args = ToolArgs.think.safeParse(raw);
      return args.success ? { result: 'Thought recorded.' } : { result: describeArgsError(name, args.error) };
    }
    case FLAG_TOOL_NAME:
      return { result: 'The task was flagged for human intervention.', stop: new StopSample('flagged') };
    case SUBMIT_TOOL: {
      const report = await env.gradeWorkdir(true);
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
