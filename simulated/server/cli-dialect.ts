import type { IncomingHttpHeaders } from 'node:http';
import type { ChatMessage, ToolSpec } from '../../core/model.js';
import { FLAG_SENTINEL, FLAG_TOOL_NAME } from '../../scaffolds/prompts.js';
import { SUBMIT_TOOL, toolSpecs } from '../../scaffolds/tools/specs.js';
import type { Policy, PolicyContext, PolicyTurn } from '../policy.js';
import { claudeCodeDialect } from './claude-code-dialect.js';
import { type CliDialect, type CliDialectName, continued, parseArgs, type PolicyCall, policyText, type ReadResult } from './cli-common.js';
import { codexDialect } from './codex-dialect.js';
import type { SessionStats } from './types.js';

/**
 * The agent CLIs' tool dialects (Codex CLI, Claude Code), so the reference policies drive the real CLIs. A request
 * is the CLI's main conversation when its tools are the CLI's; the policy then sees the conversation as the full
 * scaffold would show it (the task message, its own calls with plain command output, the full scaffold's tools), and
 * its next call is carried out with the CLI's tools: one call per answer, steps that only prepare a call (a Read
 * before an edit, a wait for a running command) hidden from the policy and not counted as its turns. `submit` is a
 * final message without a call, which ends the CLI; `flag_for_human` is a final message holding the abort phrase.
 * The CLI's other requests (Claude Code's small-model calls for titles and topics, say) get plausible short answers
 * that are not the policy's. See simulated/README.md.
 */

export type { CliDialectName } from './cli-common.js';

/** What the server made one CLI call for: a policy call (or a step that prepares it), or a wait for the previous one. */
type CallRecord = { policy: PolicyCall; text: string; stage: number; stages: number; sig: string } | { waits: true };

export interface CliState {
  dialect: CliDialect;
  /** The calls this server made, by call id, so the policy's own calls come back exactly as it made them. */
  calls: Map<string, CallRecord>;
}

/** What the session's stats say about a CLI driving it. */
export type CliStats = NonNullable<SessionStats['cli']>;

/** How a CLI answer counts: the policy's turn, a step that prepares one, or a side request's. */
export type CliAnswerKind = 'policy' | 'preparatory' | 'side';

export interface CliAnswer {
  turn: PolicyTurn;
  kind: CliAnswerKind;
  /** Keeps what the answer's calls stand for, once their ids are known. */
  remember(callIds: string[]): void;
}

const DIALECTS = { responses: codexDialect, anthropic: claudeCodeDialect } as const;
const states = new WeakMap<object, CliState>();

/** The CLI a request's client says it is, from the headers both send on every request. */
function clientOf(headers: IncomingHttpHeaders): CliDialectName | undefined {
  const agent = String(headers['user-agent'] ?? '');
  if (agent.startsWith('claude-cli/') || headers['x-app'] === 'cli') return 'claude-code';
  if (agent.startsWith('codex') || String(headers.originator ?? '').startsWith('codex')) return 'codex';
  return undefined;
}

/**
 * The CLI behind a request, if any: its state in this session and whether the request is a side request. Our own
 * loops' requests are no CLI's (undefined), so nothing changes for them.
 */
export function recognizeCli(
  session: { stats: SessionStats },
  wire: 'openai' | 'anthropic' | 'responses',
  headers: IncomingHttpHeaders,
  tools: ToolSpec[],
): { state: CliState; side: boolean } | undefined {
  if (wire === 'openai') return undefined;
  const dialect = DIALECTS[wire];
  const main = dialect.isMain(tools);
  const known = states.get(session);
  if (!main && known?.dialect !== dialect && clientOf(headers) !== dialect.name) return undefined;
  let state = known;
  if (!state || state.dialect !== dialect) {
    state = { dialect, calls: new Map() };
    states.set(session, state);
  }
  session.stats.cli ??= { dialect: dialect.name, sideAnswers: 0, preparatoryCalls: 0 };
  return { state, side: !main };
}

const signature = (call: PolicyCall) => `${call.name}\0${JSON.stringify(parseArgs(call.arguments))}`;
const WAITS: CallRecord = { waits: true };

interface Walked {
  view: ChatMessage[];
  cwd: string;
  offersFlag: boolean;
  /** The CLI's latest call: what the server made it for, and its result. */
  last?: { record: CallRecord; read: ReadResult | undefined };
  /** Tool names the CLI said it does not have. */
  refused: Set<string>;
}

/** The CLI's conversation as the full scaffold would show it to the policy. */
function walk(state: CliState, messages: ChatMessage[]): Walked {
  const { dialect, calls } = state;
  const { task, cwd } = dialect.opening(messages);
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m.content);
  const items: { text: string; call?: PolicyCall & { id: string }; read?: ReadResult }[] = [];
  const refused = new Set<string>();
  let last: Walked['last'];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    if (!m.toolCalls?.length) {
      if (m.content) items.push({ text: m.content });
      continue;
    }
    for (const [i, c] of m.toolCalls.entries()) {
      const cli = { name: c.name, args: parseArgs(c.arguments) };
      const raw = results.get(c.id);
      const read = raw === undefined ? undefined : dialect.read(c.name, raw);
      if (read?.unknownTool) refused.add(c.name);
      const record =
        calls.get(c.id) ??
        (dialect.continues?.(cli) ? WAITS : { policy: dialect.decode(cli, cwd), text: i === 0 ? m.content : '', stage: 0, stages: 1, sig: '' });
      last = { record, read };
      if ('waits' in record) {
        const item = items.at(-1);
        if (item?.read && read) item.read = continued(item.read, read);
        continue;
      }
      // A step that only prepares the policy's call: its result is not the policy's.
      if (record.stage < record.stages - 1) continue;
      items.push({ text: record.text, call: { ...record.policy, id: c.id }, ...(read ? { read } : {}) });
    }
  }
  const view: ChatMessage[] = [{ role: 'user', content: task }];
  for (const item of items) {
    if (!item.call) {
      view.push({ role: 'assistant', content: item.text });
      continue;
    }
    const { id, name, arguments: args } = item.call;
    view.push({ role: 'assistant', content: item.text, toolCalls: [{ id, name, arguments: args }] });
    if (item.read) view.push({ role: 'tool', toolCallId: id, name, content: policyText(item.read) });
  }
  return { view, cwd, offersFlag: task.includes(FLAG_SENTINEL), refused, ...(last ? { last } : {}) };
}

const ignore = () => {};
const finalAnswer = (text: string): CliAnswer => ({ turn: { text }, kind: 'policy', remember: ignore });

/**
 * The answer to a CLI's main-conversation request: a wait for a command still running, else the policy's next move
 * in the CLI's tools. Throws what the policy throws.
 */
export function cliTurn(
  session: { policy: Policy; context: PolicyContext; stats: SessionStats },
  state: CliState,
  messages: ChatMessage[],
): CliAnswer {
  const { dialect } = state;
  const w = walk(state, messages);
  const stats = session.stats.cli!;
  const running = w.last?.read?.runningSession;
  if (running !== undefined && dialect.poll) {
    const poll = dialect.poll(running);
    stats.preparatoryCalls++;
    return {
      turn: { text: '', toolCalls: [{ name: poll.name, arguments: JSON.stringify(poll.args) }] },
      kind: 'preparatory',
      remember: rememberAs(state, WAITS),
    };
  }
  const tools = toolSpecs({ allowFlag: w.offersFlag, timeoutS: 600 });
  // The view is the full scaffold's, whatever the session was opened with.
  const turn = session.policy.next(w.view, tools, { ...session.context, scaffold: 'full' });
  const call = turn.toolCalls?.[0];
  if (!call || call.name === SUBMIT_TOOL) return finalAnswer(turn.text.trim() || 'Done.');
  const args = parseArgs(call.arguments);
  if (call.name === FLAG_TOOL_NAME) {
    const why = typeof args.explanation === 'string' && args.explanation ? args.explanation : turn.text;
    return finalAnswer(`${FLAG_SENTINEL}\n${why}`.trim());
  }
  const steps = dialect.steps(call, args, w.cwd);
  const refused = steps.find((s) => w.refused.has(s.name));
  if (refused) {
    // The CLI already said it has no such tool: asking again would loop, so the conversation ends here.
    stats.stopped = `the policy called ${refused.name} again after the CLI refused it`;
    return finalAnswer(`I cannot continue: the tool ${refused.name} is not available here.`);
  }
  const sig = signature(call);
  const prev = w.last?.record;
  const stage = prev && !('waits' in prev) && prev.sig === sig && prev.stage < prev.stages - 1 ? prev.stage + 1 : 0;
  const step = steps[stage]!;
  const preparatory = stage < steps.length - 1;
  if (preparatory) stats.preparatoryCalls++;
  const record: CallRecord = { policy: call, text: turn.text, stage, stages: steps.length, sig };
  return {
    turn: { text: preparatory ? '' : turn.text, toolCalls: [{ name: step.name, arguments: JSON.stringify(step.args) }] },
    kind: preparatory ? 'preparatory' : 'policy',
    remember: rememberAs(state, record),
  };
}

function rememberAs(state: CliState, record: CallRecord) {
  return (callIds: string[]) => {
    const id = callIds[0];
    if (id !== undefined) state.calls.set(id, record);
  };
}

/** A plausible short answer to a CLI's side request (a title, a topic check, a summary): never the policy's. */
export function sideTurn(messages: ChatMessage[]): PolicyTurn {
  const asked = messages
    .filter((m) => m.role === 'system' || m.role === 'user')
    .map((m) => m.content)
    .join('\n');
  if (/isNewTopic/.test(asked)) return { text: '{"isNewTopic": false, "title": null}' };
  if (/\btitle\b/i.test(asked)) return { text: 'Implement the task' };
  if (/summar/i.test(asked)) return { text: 'The agent is working on the task in its work folder.' };
  return { text: 'OK.' };
}
