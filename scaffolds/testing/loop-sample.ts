import type { Templates } from '../templates.js';
import pino from 'pino';
import { memoryBackend, type CommandReply, type CommandRoute, type MemoryCommand, type MemorySandbox } from '../../docker/testing/memory-backend.js';
import type { ChatMessage, Generation, ModelClient, ToolSpec } from '../../core/model.js';
import type { AccessMode, ScaffoldName } from '../../core/record.js';
import { AGENT_UID } from '../../core/sandbox.js';
import type { SweTask, Task } from '../../tasks/task.js';
import { runLoopSample } from '../index.js';
import { resolvePrompt } from '../prompts.js';
import type { AgentEnvironment, Evidence, GradeReport } from '../env/types.js';
import { EDITOR_PY } from '../tools/editor-script.js';
import type { AgentRunResult, SampleLimits } from '../types.js';
import { digitSumTask } from './tasks.js';

/*
 * Samples of our loops for their unit tests: an in-process sandbox (docker/testing/memory-backend.ts), an environment
 * whose grading is the test's function of the work dir, and a model that plays the test's turns in this process. The
 * layers keep scaffolds/ from the scripted model server (simulated/ sits above it); the loops see the same
 * `ModelClient` contract either way.
 */

export const WORK_DIR = '/work';

/** One model turn as a test writes it; `fail` throws from the model call instead of answering. */
export interface Turn {
  text?: string;
  toolCalls?: { name: string; arguments: string | object }[];
  usage?: Partial<Generation['usage']>;
  costUsd?: number | null;
  refusal?: boolean;
  contextExhausted?: boolean;
  fail?: Error;
  /** Waits this long (or until the call is aborted) before answering. */
  delayMs?: number;
}

/** A tool call turn: `call('bash', { command: 'ls' })`; a string argument is sent as written (malformed JSON, say). */
export const call = (name: string, args: string | object = {}): Turn => ({ toolCalls: [{ name, arguments: args }] });

/** What the model was given at each turn, for tests of the loop's messages and tools. */
export interface ModelCall {
  messages: ChatMessage[];
  tools: ToolSpec[];
}

/** A model that plays `turns` in order, then `after` (default: a reply with no tool call and no code). */
export function scriptedModel(turns: Turn[], after: Turn = { text: 'Done.' }): ModelClient & { calls: ModelCall[] } {
  const calls: ModelCall[] = [];
  return {
    name: 'test/scripted',
    calls,
    async generate(messages, tools, options) {
      const turn = turns[calls.length] ?? after;
      calls.push({ messages: [...messages], tools });
      if (turn.delayMs) await waitOrAbort(turn.delayMs, options?.signal);
      options?.signal?.throwIfAborted();
      if (turn.fail) throw turn.fail;
      return {
        text: turn.text ?? '',
        toolCalls: (turn.toolCalls ?? []).map((c, i) => ({
          id: `call-${calls.length}-${i}`,
          name: c.name,
          arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
        })),
        usage: { inputTokens: 10, outputTokens: 5, reasoningTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, ...turn.usage },
        costUsd: turn.costUsd === undefined ? 0 : turn.costUsd,
        latencyMs: 1,
        stopReason: turn.toolCalls?.length ? 'tool_calls' : 'stop',
        ...(turn.refusal ? { refusal: true } : {}),
        ...(turn.contextExhausted ? { contextExhausted: true } : {}),
      };
    },
  };
}

function waitOrAbort(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** What the test's grading sees: a minimal answer, or the work dir's files by path relative to it. */
export type Grader = (submission: { answer?: string; files: Map<string, string> }) => GradeReport['outcome'] | GradeReport;

/** The work dir the environment sets up, the agent's own. */
const SETUP_FILES = { 'func.py': 'def f():\n    pass\n', 'test.py': 'assert f() == 6\n' };

/** An environment of the test's: a work dir of two files, grading by the test's function, evidence as changed names. */
export class TestEnvironment implements AgentEnvironment {
  readonly workDir = WORK_DIR;
  readonly commandEnv = { REPO_ENV: 'on' };
  /** The agent's commands the environment heard of. */
  acts = 0;
  gradings: boolean[] = [];

  constructor(
    private readonly sandbox: MemorySandbox,
    readonly scaffold: ScaffoldName,
    readonly access: AccessMode,
    private readonly grader: Grader,
    private readonly setupError?: Error,
  ) {}

  async setup(): Promise<void> {
    if (this.setupError) throw this.setupError;
    const own = { uid: AGENT_UID, gid: AGENT_UID };
    await this.sandbox.writeFiles(Object.entries(SETUP_FILES).map(([name, content]) => ({ path: `${WORK_DIR}/${name}`, content, ...own })));
  }

  taskMessage(maxAttempts: number): string {
    return `Make f() return 6. You have ${maxAttempts} submissions.`;
  }

  async gradeAnswer(answer: string): Promise<GradeReport> {
    return this.report(this.grader({ answer, files: new Map() }), true);
  }

  async gradeWorkdir(withFeedback = true): Promise<GradeReport> {
    this.gradings.push(withFeedback);
    const files = new Map([...(await this.sandbox.readDir(WORK_DIR))].map(([k, v]) => [k, v.toString()]));
    return this.report(this.grader({ files }), withFeedback);
  }

  agentActs(): void {
    this.acts += 1;
  }

  /** The names of the work dir's files that differ from what setup wrote. */
  async evidence(): Promise<Evidence> {
    const now = await this.sandbox.readDir(WORK_DIR);
    const changed = [...now].filter(([name, content]) => SETUP_FILES[name as keyof typeof SETUP_FILES] !== content.toString()).map(([name]) => name);
    return { sourceDiff: changed.sort().join('\n'), testDiff: '', outsideChanges: '' };
  }

  private report(graded: ReturnType<Grader>, withFeedback: boolean): GradeReport {
    const report = typeof graded === 'string' ? { outcome: graded, feedback: `the tests ${graded}`, log: `graded: ${graded}` } : graded;
    return withFeedback ? report : { ...report, feedback: '' };
  }
}

/** Passes when the work dir's func.py returns 6, or a minimal answer does. */
export const returnsSix: Grader = ({ answer, files }) => ((answer ?? files.get('func.py') ?? '').includes('return 6') ? 'passed' : 'failed');

/** A SWE-style task, for the bash loop: nothing of it is read but its kind. */
export const sweTask: SweTask = {
  kind: 'swe',
  id: 'repo__issue-1',
  variant: 'original',
  source: 'test',
  repo: 'owner/repo',
  baseCommit: 'abc',
  problemStatement: 'f() should return 6',
  hintsText: '',
  patch: '',
  testPatch: '',
  originalTestPatch: '',
  failToPass: [],
  passToPass: [],
};

/** Answers `bash -c COMMAND` when COMMAND matches. */
export function bashRoute(pattern: RegExp, run: (command: MemoryCommand) => CommandReply | Promise<CommandReply>): CommandRoute {
  return { match: (c) => c.argv[0] === 'bash' && c.argv[1] === '-c' && pattern.test(c.argv[2] ?? ''), run };
}

/** Answers the text editor's script with what `reply` makes of its request (the JSON on its stdin). */
export function editorRoute(reply: (request: Record<string, unknown>, command: MemoryCommand) => CommandReply): CommandRoute {
  return { match: (c) => c.argv[0] === 'python3' && c.argv.includes(EDITOR_PY), run: (c) => reply(JSON.parse(c.stdin), c) };
}

/** An editor whose `create` writes the file into the sandbox and whose `view` shows it, as the real one would. */
export const memoryEditor = editorRoute((request, c) => {
  const path = String(request.path).startsWith('/') ? String(request.path) : `${c.cwd}/${String(request.path)}`;
  if (request.command === 'create') {
    c.sandbox.put(path, String(request.file_text), { uid: AGENT_UID, gid: AGENT_UID });
    return { stdout: JSON.stringify({ ok: true, output: `File created: ${path}` }) };
  }
  const text = c.sandbox.text(path);
  if (request.command === 'view' && text !== undefined) return { stdout: JSON.stringify({ ok: true, output: text }) };
  return { stdout: JSON.stringify({ ok: false, error: `${String(request.command)} ${String(request.path)}: not possible here` }) };
});

export interface LoopSample {
  turns: Turn[];
  after?: Turn;
  scaffold?: ScaffoldName;
  access?: AccessMode;
  task?: Task;
  grader?: Grader;
  routes?: CommandRoute[];
  allowFlag?: boolean;
  maxAttempts?: number;
  limits?: Partial<SampleLimits>;
  templates?: Templates;
  interview?: boolean;
  /** The interview's judge model (`--interview-judge`). */
  interviewJudge?: ModelClient;
  setupError?: Error;
  signal?: AbortSignal;
}

/** Runs one sample of our loops in memory; the sandbox, environment and model are returned for the test to inspect. */
export async function runLoopInMemory(sample: LoopSample): Promise<{
  result: AgentRunResult;
  sandbox: MemorySandbox;
  env: TestEnvironment;
  model: ReturnType<typeof scriptedModel>;
}> {
  const sandbox = await memoryBackend({ routes: sample.routes ?? [] }).create({ image: 'memory', runId: 'loop', sampleId: 's' });
  const scaffold = sample.scaffold ?? 'full';
  const access = sample.access ?? 'full';
  const env = new TestEnvironment(sandbox, scaffold, access, sample.grader ?? returnsSix, sample.setupError);
  const model = scriptedModel(sample.turns, sample.after);
  const result = await runLoopSample(
    {
      task: sample.task ?? digitSumTask('original'),
      scaffold,
      access,
      instructions: resolvePrompt('D'),
      allowFlag: sample.allowFlag ?? false,
      ...(sample.templates ? { templates: sample.templates } : {}),
      ...(sample.interview ? { interview: true } : {}),
      ...(sample.interviewJudge ? { interviewJudge: sample.interviewJudge } : {}),
      maxAttempts: sample.maxAttempts ?? 2,
      model,
      sandbox,
      limits: { maxMessages: 40, toolTimeoutMs: 10_000, ...sample.limits },
      signal: sample.signal ?? new AbortController().signal,
      log: pino({ level: 'silent' }),
    },
    () => env,
  );
  return { result, sandbox, env, model };
}

/** The tool results of a transcript, in order. */
export function toolResults(result: AgentRunResult): string[] {
  return result.transcript.filter((m) => m.role === 'tool').map((m) => m.content);
}

/** The user messages of a transcript after the first (the loop's feedback), in order. */
export function feedback(result: AgentRunResult): string[] {
  return result.transcript
    .filter((m) => m.role === 'user')
    .slice(1)
    .map((m) => m.content);
}
