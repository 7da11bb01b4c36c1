import type { ChatMessage, ToolSpec } from '../../core/model.js';
import { type CliCall, type CliDialect, type PolicyCall, type ReadResult, shellCommandFor } from './cli-common.js';

/**
 * Codex CLI (0.171.0, `codex exec`) on the Responses wire. Its one tool that runs anything is `exec_command{cmd}`
 * (a shell command in the working folder); it has no file editor, so edits go through the shell. A command that
 * outlives `yield_time_ms` comes back as "Process running with session ID N" and is waited for with
 * `write_stdin{session_id, chars: ""}`. Every result is framed:
 *
 *   Chunk ID: 1a2b3c
 *   Wall time: 0.0000 seconds
 *   Process exited with code 0
 *   Original token count: 12
 *   Output:
 *   <the command's output>
 *
 * A call to a tool it does not have comes back as "unsupported call: NAME".
 */

const EXEC = 'exec_command';
const POLL = 'write_stdin';
/** The longest Codex waits before handing back a running command (its documented cap). */
const EXEC_YIELD_MS = 30_000;
/** An empty poll may wait this long for the command to end. */
const POLL_YIELD_MS = 300_000;

function textOf(m: ChatMessage): string {
  return m.role === 'tool' ? '' : m.content;
}

/** Codex's own user messages: the environment, AGENTS.md and other context it adds in tags. */
function codexContext(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('<') || t.startsWith('# AGENTS.md instructions');
}

function exec(cmd: string): CliCall {
  return { name: EXEC, args: { cmd, yield_time_ms: EXEC_YIELD_MS } };
}

/** The frame's header lines (before `Output:`) and the output after them; null when the text has no frame. */
function splitFrame(content: string): { header: string; output: string } | null {
  const at = content.search(/^Output:\n?/m);
  if (at < 0 || !/^(Chunk ID|Wall time|Process )/m.test(content.slice(0, at))) return null;
  return { header: content.slice(0, at), output: content.slice(at).replace(/^Output:\n?/, '') };
}

export const codexDialect: CliDialect = {
  name: 'codex',

  isMain: (tools: ToolSpec[]) => tools.some((t) => t.name === EXEC),

  opening(messages) {
    const users = messages.filter((m) => m.role === 'user').map(textOf);
    const cwd = users.map((t) => /<cwd>([^<]+)<\/cwd>/.exec(t)?.[1]).find((c) => c !== undefined) ?? '/';
    const task = users.find((t) => !codexContext(t)) ?? '';
    return { task, cwd: cwd.trim() };
  },

  steps(call, args) {
    const command = shellCommandFor(call.name, args);
    if (command !== undefined) return [exec(command)];
    // Not a tool of ours: passed on as it is, for Codex to refuse.
    return [{ name: call.name, args }];
  },

  decode(call): PolicyCall {
    if (call.name === EXEC) return { name: 'bash', arguments: JSON.stringify({ command: String(call.args.cmd ?? '') }) };
    return { name: call.name, arguments: JSON.stringify(call.args) };
  },

  read(name, content): ReadResult {
    const unknown = /^unsupported call: (.+)$/m.exec(content.trim());
    if (unknown) return { output: '', error: `no such tool: ${unknown[1]}`, unknownTool: true };
    const frame = splitFrame(content);
    if (!frame) return name === EXEC || name === POLL ? { output: '', error: content.trim() } : { output: content };
    const exited = /Process exited with code (-?\d+)/.exec(frame.header);
    const running = /Process running with session ID (\d+)/.exec(frame.header);
    return {
      output: frame.output,
      ...(exited ? { exitCode: Number(exited[1]) } : {}),
      ...(running && !exited ? { runningSession: Number(running[1]) } : {}),
    };
  },

  poll: (session) => ({ name: POLL, args: { session_id: session, chars: '', yield_time_ms: POLL_YIELD_MS } }),

  continues: (call) => call.name === POLL && (call.args.chars ?? '') === '',
};
