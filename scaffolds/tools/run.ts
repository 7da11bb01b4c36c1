import { z } from 'zod';
import type { ExecResult, Sandbox } from '../../docker/types.js';
import { AGENT_HOME, AGENT_USER } from '../../core/sandbox.js';
import type { AgentEnvironment } from '../env/types.js';
import { EDITOR_PY } from './editor-script.js';
import type { ToolArgs } from './specs.js';
import { perCall } from '../../core/signals.js';
import { headAndTail } from './truncate.js';

/** Where a tool runs: every command is the agent's, so it runs as the unprivileged user in the work dir. */
export interface ToolContext {
  sandbox: Pick<Sandbox, 'exec'>;
  workDir: string;
  /** The environment's variables for the agent's commands (the repository's environment). */
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
}

/** The raw bytes kept of each stream before the model-facing cut (the sandbox keeps head and tail too). */
const MAX_EXEC_BYTES = 256 * 1024;

/** Why a call's arguments were refused, phrased for the model. */
export function describeArgsError(tool: string, error: z.ZodError): string {
  const issues = error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`);
  return `Error: invalid arguments for ${tool}: ${issues.join('; ')}`;
}

/** The model-facing text of a command's result; failures end with `[exit code: N]`. */
export function formatExec(result: ExecResult, timeoutMs: number): string {
  const parts: string[] = [];
  if (result.stdout) parts.push(result.stdout.trimEnd());
  if (result.stderr) parts.push(result.stderr.trimEnd());
  let text = headAndTail(parts.join('\n'));
  if (result.stdoutCutBytes + result.stderrCutBytes > 0) text += `\n[${result.stdoutCutBytes + result.stderrCutBytes} bytes of output were cut]`;
  if (result.timedOut) return `${text}\n[the command was killed after the ${Math.round(timeoutMs / 1000)} s limit]\n[exit code: 124]`.trimStart();
  if (result.oomKilled) return `${text}\n[the command ran out of memory and was killed]\n[exit code: 137]`.trimStart();
  if (result.exitCode !== 0) return `${text}\n[exit code: ${result.exitCode ?? 'unknown'}]`.trimStart();
  return text === '' ? '(no output)' : text;
}

/** The context the loops run tools in: the environment's work dir and variables, the sample's limits. */
export function toolContext(env: AgentEnvironment, sandbox: Sandbox, timeoutMs: number, signal: AbortSignal): ToolContext {
  return {
    // Every command of the agent's may change the work dir: the environment hears of each before it runs.
    sandbox: {
      exec: (command, options) => {
        env.agentActs?.();
        return sandbox.exec(command, options);
      },
    },
    workDir: env.workDir,
    // Read at each call: the environment knows its variables once its setup, which runs beside the first model call, ends.
    get env() {
      return env.commandEnv;
    },
    timeoutMs,
    signal,
  };
}

/** Runs a command of the agent's; `inEnvironment` false runs the harness's own helpers on the image's plain PATH. */
function exec(ctx: ToolContext, argv: string[], stdin?: string, inEnvironment = true): Promise<ExecResult> {
  return ctx.sandbox.exec(argv, {
    user: AGENT_USER,
    cwd: ctx.workDir,
    timeoutMs: ctx.timeoutMs,
    maxOutputBytes: MAX_EXEC_BYTES,
    signal: perCall(ctx.signal),
    env: { ...(inEnvironment ? ctx.env : {}), HOME: AGENT_HOME, PYTHONDONTWRITEBYTECODE: '1' },
    ...(stdin !== undefined ? { stdin } : {}),
  });
}

export async function runBash(ctx: ToolContext, args: z.infer<(typeof ToolArgs)['bash']>): Promise<string> {
  return formatExec(await exec(ctx, ['bash', '-c', args.command]), ctx.timeoutMs);
}

export async function runPython(ctx: ToolContext, args: z.infer<(typeof ToolArgs)['python']>): Promise<string> {
  return formatExec(await exec(ctx, ['python3', '-'], args.code), ctx.timeoutMs);
}

const EditorReply = z.union([z.object({ ok: z.literal(true), output: z.string() }), z.object({ ok: z.literal(false), error: z.string() })]);

export async function runEditor(ctx: ToolContext, args: z.infer<(typeof ToolArgs)['text_editor']>): Promise<string> {
  // The editor is the harness's script: it runs on the image's own python3, whatever the repository's version.
  const result = await exec(ctx, ['python3', '-I', '-c', EDITOR_PY], JSON.stringify(args), false);
  if (result.timedOut) return formatExec(result, ctx.timeoutMs);
  const last = result.stdout.trimEnd().split('\n').at(-1) ?? '';
  let reply: z.infer<typeof EditorReply>;
  try {
    reply = EditorReply.parse(JSON.parse(last));
  } catch {
    return `Error: the editor failed: ${headAndTail(result.stderr.trim() || result.stdout.trim(), 2000)}`;
  }
  return reply.ok ? headAndTail(reply.output) : `Error: ${reply.error}`;
}
