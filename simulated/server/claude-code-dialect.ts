import { isAbsolute, posix } from 'node:path';
import type { ToolSpec } from '../../core/model.js';
import { type CliCall, type CliDialect, type PolicyCall, type ReadResult, shellCommandFor } from './cli-common.js';

/**
 * Claude Code (2.1.332, `claude -p`) on the Messages wire (`/v1/messages?beta=true`, streamed). Its tools take
 * absolute paths: `Bash{command, timeout, description}`, `Read{file_path}`, `Write{file_path, content}`,
 * `Edit{file_path, old_string, new_string}`. Write and Edit refuse a file that exists and was not read first
 * ("File has not been read yet"), so every edit is preceded by a Read the policy never sees. The conversation opens
 * with `<system-reminder>` blocks (environment, date, skills) before the prompt, and every tool result ends with one.
 * Results: Bash's output, or "Exit code N\n<output>" when it fails; a refused call
 * "<tool_use_error>...</tool_use_error>", "No such tool available: NAME" for a tool it does not have.
 */

/** The longest Bash lets a command run (10 minutes). */
const BASH_TIMEOUT_MS = 600_000;
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

export function withoutReminders(text: string): string {
  return text.replace(REMINDER, '').trim();
}

function bash(command: string): CliCall {
  return { name: 'Bash', args: { command, description: 'Run a command', timeout: BASH_TIMEOUT_MS } };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The path relative to the working folder when it lies inside it, as the policies write paths. */
function relativeTo(cwd: string, path: string): string {
  const rel = posix.relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

export const claudeCodeDialect: CliDialect = {
  name: 'claude-code',

  isMain: (tools: ToolSpec[]) => tools.some((t) => t.name === 'Bash') && tools.some((t) => t.name === 'Edit' || t.name === 'Write'),

  opening(messages) {
    const texts = messages.flatMap((m) => (m.role === 'user' || m.role === 'system' ? [m.content] : []));
    const cwd = texts.map((t) => /(?:Primary working directory|Working directory): *(\S+)/.exec(t)?.[1]).find((c) => c !== undefined) ?? '/';
    const task = messages.flatMap((m) => (m.role === 'user' ? [withoutReminders(m.content)] : [])).find((t) => t !== '') ?? '';
    return { task, cwd };
  },

  steps(call, args, cwd) {
    const abs = (p: unknown) => posix.resolve(cwd, str(p));
    if (call.name === 'bash') return [bash(str(args.command))];
    if (call.name === 'text_editor') {
      const file_path = abs(args.path);
      if (args.command === 'create')
        return [
          { name: 'Read', args: { file_path } },
          { name: 'Write', args: { file_path, content: str(args.file_text) } },
        ];
      if (args.command === 'str_replace') {
        const edit = { file_path, old_string: str(args.old_str), new_string: str(args.new_str), replace_all: false };
        return [
          { name: 'Read', args: { file_path } },
          { name: 'Edit', args: edit },
        ];
      }
      if (args.command === 'view') return [{ name: 'Read', args: { file_path } }];
    }
    const command = shellCommandFor(call.name, args);
    if (command !== undefined) return [bash(command)];
    // Not a tool of ours: passed on as it is, for Claude Code to refuse.
    return [{ name: call.name, args }];
  },

  decode(call, cwd): PolicyCall {
    const a = call.args;
    const path = relativeTo(cwd, str(a.file_path));
    const as = (name: string, args: object): PolicyCall => ({ name, arguments: JSON.stringify(args) });
    if (call.name === 'Bash') return as('bash', { command: str(a.command) });
    if (call.name === 'Write') return as('text_editor', { command: 'create', path, file_text: str(a.content) });
    if (call.name === 'Edit') return as('text_editor', { command: 'str_replace', path, old_str: str(a.old_string), new_str: str(a.new_string) });
    if (call.name === 'Read') return as('text_editor', { command: 'view', path });
    return as(call.name, a);
  },

  read(name, content): ReadResult {
    const text = withoutReminders(content);
    const refused = /^<tool_use_error>([\s\S]*)<\/tool_use_error>$/.exec(text);
    if (refused) {
      const why = refused[1]!.replace(/^Error: */, '').trim();
      return { output: '', error: why, ...(/No such tool available/.test(why) ? { unknownTool: true } : {}) };
    }
    if (name !== 'Bash') return { output: text };
    const failed = /^Exit code (-?\d+)\n?/.exec(text);
    if (failed) return { output: text.slice(failed[0].length), exitCode: Number(failed[1]) };
    return { output: text === '(Bash completed with no output)' ? '' : text, exitCode: 0 };
  },
};
