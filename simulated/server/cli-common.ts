import type { ChatMessage, ToolSpec } from '../../core/model.js';

/**
 * What the dialects of the agent CLIs share (see cli-dialect.ts): the shape of one dialect, the policy's calls as
 * shell commands for a CLI that has no tool of its own for them, and a tool result in the full scaffold's words.
 */

export type CliDialectName = 'codex' | 'claude-code';

/** A call as the policy made it (full scaffold tools: bash, python, text_editor, think, submit, flag_for_human). */
export interface PolicyCall {
  name: string;
  /** JSON text of the arguments. */
  arguments: string;
}

/** One call on the CLI's side: its own tool name and arguments. */
export interface CliCall {
  name: string;
  args: Record<string, unknown>;
}

/** A CLI tool result read back: the command's output and exit code, or the tool's own error. */
export interface ReadResult {
  output: string;
  /** Set for a command that ended; a missing code on a finished call means success. */
  exitCode?: number;
  /** The tool refused or failed (no command ran, or the edit did not apply). */
  error?: string;
  /** The CLI has no tool of that name. */
  unknownTool?: boolean;
  /** Codex: the command is still running in this exec session. */
  runningSession?: number;
}

export interface CliDialect {
  readonly name: CliDialectName;
  /** Whether a request with these tools is the CLI's main conversation (its other requests are side requests). */
  isMain(tools: ToolSpec[]): boolean;
  /** The task text the scaffold gave the CLI, with the CLI's own wrapping removed, and the CLI's working folder. */
  opening(messages: ChatMessage[]): { task: string; cwd: string };
  /** The CLI calls that carry out the policy's call, in order: all but the last only prepare it. */
  steps(call: PolicyCall, args: Record<string, unknown>, cwd: string): CliCall[];
  /** The policy call a CLI call stands for, when the server has no record of making it. */
  decode(call: CliCall, cwd: string): PolicyCall;
  /** A tool result as the CLI sent it back. */
  read(name: string, content: string): ReadResult;
  /** A call that waits for a command still running (Codex's exec sessions). */
  poll?(session: number): CliCall;
  /** Whether a call only waits for the command before it: its result continues that command's. */
  continues?(call: CliCall): boolean;
}

/** The result as the full scaffold words it (scaffolds/tools/run.ts): failures start with `Error` or end with the exit code. */
export function policyText(r: ReadResult): string {
  if (r.error !== undefined) return `Error: ${r.error}`;
  const text = r.output.trimEnd();
  if (r.exitCode !== undefined && r.exitCode !== 0) return `${text}\n[exit code: ${r.exitCode}]`.trimStart();
  return text === '' ? '(no output)' : text;
}

/** A result continued by a poll of the same command: the outputs joined, the poll's ending. */
export function continued(first: ReadResult, next: ReadResult): ReadResult {
  const output = [first.output.trimEnd(), next.output.trimEnd()].filter((s) => s !== '').join('\n');
  return { ...next, output };
}

/** A tag for a quoted heredoc that no line of the text equals. */
function heredocTag(text: string, base: string): string {
  const lines = new Set(text.split('\n'));
  let tag = base;
  for (let i = 2; lines.has(tag); i++) tag = `${base}_${i}`;
  return tag;
}

/** A shell word for a path, quoted only when it needs to be. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A Python script run on JSON data from a quoted heredoc: nothing in the data is expanded by the shell. */
function pythonOnJson(script: string, data: object): string {
  const json = JSON.stringify(data);
  const tag = heredocTag(json, 'IMPOSSIBLEBENCH_ARGS');
  return `python3 -c '${script}' <<'${tag}'\n${json}\n${tag}`;
}

// Scripts in single quotes: they use none themselves.
const REPLACE_SCRIPT = [
  'import json, sys',
  'a = json.load(sys.stdin)',
  'text = open(a["path"], encoding="utf-8").read()',
  'n = text.count(a["old_str"])',
  'if n != 1: sys.exit("Error: old_str occurs %d times in %s; it must occur exactly once" % (n, a["path"]))',
  'open(a["path"], "w", encoding="utf-8").write(text.replace(a["old_str"], a["new_str"]))',
  'print("The file %s has been edited." % a["path"])',
].join('\n');

const INSERT_SCRIPT = [
  'import json, sys',
  'a = json.load(sys.stdin)',
  'lines = open(a["path"], encoding="utf-8").read().split("\\n")',
  'if not 0 <= a["insert_line"] <= len(lines): sys.exit("Error: insert_line %d is outside the file" % a["insert_line"])',
  'lines[a["insert_line"]:a["insert_line"]] = a["new_str"].split("\\n")',
  'open(a["path"], "w", encoding="utf-8").write("\\n".join(lines))',
  'print("The file %s has been edited." % a["path"])',
].join('\n');

const WRITE_SCRIPT = [
  'import json, os, sys',
  'a = json.load(sys.stdin)',
  'os.makedirs(os.path.dirname(a["path"]) or ".", exist_ok=True)',
  'open(a["path"], "w", encoding="utf-8").write(a["file_text"])',
  'print("File created successfully at: %s" % a["path"])',
].join('\n');

/** Creates a file: `cat` from a quoted heredoc, or a small Python script when the text does not end a line. */
export function createCommand(path: string, text: string): string {
  if (!text.endsWith('\n')) return pythonOnJson(WRITE_SCRIPT, { path, file_text: text });
  const tag = heredocTag(text, 'IMPOSSIBLEBENCH_EOF');
  const dir = path.includes('/') ? `mkdir -p ${shellWord(path.slice(0, path.lastIndexOf('/')) || '/')} && ` : '';
  return `${dir}cat > ${shellWord(path)} <<'${tag}'\n${text}${tag}`;
}

export function replaceCommand(path: string, oldStr: string, newStr: string): string {
  return pythonOnJson(REPLACE_SCRIPT, { path, old_str: oldStr, new_str: newStr });
}

export function insertCommand(path: string, line: number, text: string): string {
  return pythonOnJson(INSERT_SCRIPT, { path, insert_line: line, new_str: text });
}

export function viewCommand(path: string, range: unknown): string {
  if (Array.isArray(range) && range.length === 2) {
    const [first, last] = range as [number, number];
    return `cat -n ${shellWord(path)} | sed -n '${first},${last === -1 ? '$' : last}p'`;
  }
  return `cat -n ${shellWord(path)}`;
}

export function pythonCommand(code: string): string {
  const tag = heredocTag(code, 'IMPOSSIBLEBENCH_PY');
  return `python3 - <<'${tag}'\n${code.endsWith('\n') ? code : `${code}\n`}${tag}`;
}

/** The policy's call as one shell command, for the tools a CLI has no match for. */
export function shellCommandFor(name: string, args: Record<string, unknown>): string | undefined {
  const s = (k: string) => (typeof args[k] === 'string' ? (args[k] as string) : '');
  if (name === 'bash') return s('command');
  if (name === 'python') return pythonCommand(s('code'));
  if (name === 'think') return 'true';
  if (name !== 'text_editor') return undefined;
  const path = s('path');
  switch (args.command) {
    case 'create':
      return createCommand(path, s('file_text'));
    case 'str_replace':
      return replaceCommand(path, s('old_str'), s('new_str'));
    case 'insert':
      return insertCommand(path, Number(args.insert_line ?? 0), s('new_str'));
    case 'view':
      return viewCommand(path, args.view_range);
    default:
      return undefined;
  }
}

/** Arguments as an object; a call whose JSON does not parse keeps none. */
export function parseArgs(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
