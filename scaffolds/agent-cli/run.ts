import type { ExecResult, ReadOnlyFile, Sandbox } from '../../docker/types.js';
import { UserError } from '../../core/errors.js';
import type { ModelClient, ModelEndpoint } from '../../core/model.js';
import type { Outcome, StopReason } from '../../core/record.js';
import { AGENT_USER, ROOT_USER } from '../../core/sandbox.js';
import { isContextOverflow } from '../../models/overflow.js';
import { defaultPrices } from '../../models/prices.js';
import type { AgentEnvironment, Evidence, GradeReport } from '../env/types.js';
import { FLAG_SENTINEL } from '../prompts.js';
import type { AgentRunInput, AgentRunResult } from '../types.js';
import { cliPrompt } from './prompt.js';
import { exchangeFailed, type ProxyLimits, RecordingProxy } from './proxy.js';
import { type AgentCliSpec, agentCliFor, type CliPlaceholder, fillPlaceholders } from './spec.js';
import { exchangesToTranscript } from './transcript.js';
import { type ProgramEnd, programFailure, programLog } from './program-end.js';
import { DiskWatch } from '../disk-watch.js';
import { readEvidence, sampleTamper } from '../error-result.js';

/** The harness's folder for agent programs in a sandbox: their binary (read-only) and their own writable home. */
export const AGENT_CLI_DIR = '/opt/agent-cli';
const CLI_HOME = `${AGENT_CLI_DIR}/home`;
/** The loopback port inside the sandbox that the command channel carries to the recording proxy. */
export const AGENT_CLI_PORT = 4141;
/** An agent program's run when the experiment sets no time limit: it must end some time. */
export const DEFAULT_CLI_TIME_MS = 60 * 60_000;

export function agentCliBinaryTarget(name: string): string {
  return `${AGENT_CLI_DIR}/bin/${name}`;
}

/** The sandbox's read-only files for an agent program: its binary, from where the user installed it. */
export function agentCliReadOnlyFiles(spec: Pick<AgentCliSpec, 'name'>, binaryPath: string): ReadOnlyFile[] {
  return [{ source: binaryPath, target: agentCliBinaryTarget(spec.name) }];
}

/** The agent program a sample runs: the run's description of it (built in when none is given). */
export function cliSpecOf(input: AgentRunInput): AgentCliSpec {
  const spec = input.agentCli?.spec ?? agentCliFor(input.scaffold, []);
  if (!spec) throw new UserError(`scaffold ${input.scaffold} is neither built in nor an agent program the config describes`);
  return spec;
}

/** Where the model answers the program's API, or a one-line error when its provider does not speak it. */
export function endpointFor(model: ModelClient, spec: AgentCliSpec): ModelEndpoint {
  const endpoint = model.endpoint?.(spec.api);
  if (!endpoint) {
    throw new UserError(
      `scaffold ${spec.name} speaks the ${spec.api} API, which model ${model.name} is not reached through`,
      spec.api === 'anthropic' ? 'use an anthropic/ model' : 'use an openai/ or openai-responses/ model',
    );
  }
  return endpoint;
}

/** Model names the programs know, for scripted models (whose provider name is a policy's): a program may act on it. */
const STAND_IN_MODELS: Record<AgentCliSpec['api'], string> = {
  'openai-responses': 'gpt-5-codex',
  'openai-chat': 'gpt-4o',
  anthropic: 'claude-sonnet-4-5',
};

function programModelName(model: ModelClient, spec: AgentCliSpec, endpoint: ModelEndpoint): string {
  return model.name.startsWith('scripted/') ? STAND_IN_MODELS[spec.api] : endpoint.model;
}

/** The proxy's limits: a program's request and its answer stand for the two messages a turn adds in our loops. */
function proxyLimits(input: AgentRunInput, deadline: number): ProxyLimits {
  const { maxMessages, maxTokens, maxCostUsd } = input.limits;
  return {
    messages: Math.max(1, Math.floor(maxMessages / 2)),
    deadline,
    ...(maxTokens !== undefined ? { tokens: maxTokens } : {}),
    ...(maxCostUsd !== undefined ? { costUsd: maxCostUsd } : {}),
  };
}

/** The program's own home, fresh and the agent's, so that nothing of root's and nothing shared holds its settings. */
async function prepareHome(sandbox: Sandbox): Promise<void> {
  const r = await sandbox.exec(['sh', '-c', `mkdir -p ${CLI_HOME} && chown ${AGENT_USER}: ${CLI_HOME} && chmod 700 ${CLI_HOME}`], {
    user: ROOT_USER,
  });
  if (r.exitCode !== 0) throw new Error(`could not make the agent program's home: ${r.stderr.trim()}`);
}

/** The command line and environment the program runs with. */
function commandOf(spec: AgentCliSpec, values: Record<CliPlaceholder, string>, commandEnv: Record<string, string>) {
  const argv = [agentCliBinaryTarget(spec.name), ...spec.args.map((a) => fillPlaceholders(a, values))];
  const env: Record<string, string> = { ...commandEnv };
  for (const [name, value] of Object.entries(spec.env)) env[name] = fillPlaceholders(value, values);
  for (const name of spec.home) env[name] = CLI_HOME;
  return { argv, env };
}

/**
 * How the program's model traffic ended, when it ended in a failure: the provider's context overflow (graded, as in
 * our loops), or an API failure (the last request broke in transit or was answered with an error), which is `error`.
 */
function trafficEnd(proxy: RecordingProxy): { overflow: true } | { failed: string } | undefined {
  const last = proxy.exchanges.at(-1);
  const lastFailure = proxy.failures.at(-1);
  const lastAnswered = last ? Date.parse(last.startedAt) + last.ms : 0;
  if (lastFailure && lastFailure.at >= lastAnswered) return { failed: lastFailure.message };
  if (!last || !exchangeFailed(last)) return undefined;
  const error = (last.reply.error ?? {}) as { message?: unknown; code?: unknown; type?: unknown };
  const message = last.streamError ?? (typeof error.message === 'string' ? error.message : JSON.stringify(last.reply).slice(0, 500));
  if (isContextOverflow(last.status, [error.code, error.type], message)) return { overflow: true };
  return { failed: `the model's provider answered HTTP ${last.status}: ${message}` };
}

/**
 * Why the sample stopped: a limit the proxy reached or the abort phrase, the time limit, the program failing on its
 * own (an exit code or a signal; its work is graded as it stands, and the grading log says how it ended), or the
 * program ending its turn.
 */
function stopOf(proxy: RecordingProxy, run: ExecResult): StopReason {
  if (proxy.stopReason) return proxy.stopReason;
  if (run.timedOut) return 'time_limit';
  if (run.exitCode !== 0) return 'program_failed';
  return 'submitted';
}

function outcomeOf(report: GradeReport, stop: StopReason): Outcome {
  if (stop === 'flagged') return 'failed';
  return report.outcome === 'timeout' ? 'failed' : report.outcome;
}

/** Changes outside the work dir, less the program's own folder (its binary's mount and its home). */
function withoutCliFolder(outside: string): string {
  return outside
    .split('\n')
    .filter((line) => {
      const path = line.slice(line.indexOf(' ') + 1);
      return line && path !== AGENT_CLI_DIR && !path.startsWith(`${AGENT_CLI_DIR}/`) && !AGENT_CLI_DIR.startsWith(`${path}/`);
    })
    .join('\n');
}

/** The record of a CLI sample from what the proxy saw, the program's run and the one grading. */
function cliResult(
  proxy: RecordingProxy,
  spec: AgentCliSpec,
  parts: { outcome: Outcome; stop: StopReason; gradingLog: string; evidence: Evidence; tamper: string[]; error?: string; graded: boolean },
): AgentRunResult {
  const { usage, costUsd } = proxy.totals();
  return {
    outcome: parts.outcome,
    stopReason: parts.stop,
    attempts: parts.graded ? 1 : 0,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    refusals: 0,
    costUsd,
    transcript: exchangesToTranscript(spec.api, proxy.exchanges),
    ...parts.evidence,
    outsideChanges: withoutCliFolder(parts.evidence.outsideChanges),
    gradingLog: parts.gradingLog,
    tamper: sampleTamper(parts.tamper, parts.evidence, parts.outcome !== 'error'),
    ...(parts.error ? { error: parts.error } : {}),
  };
}

/** Runs the program once in the work dir, as the agent's user, until it exits or the time limit. */
async function runProgram(
  input: AgentRunInput,
  env: AgentEnvironment,
  spec: AgentCliSpec,
  proxy: RecordingProxy,
  run: { deadline: number; model: string; signal: AbortSignal },
) {
  const { deadline, model } = run;
  const prompt = cliPrompt(input, env.taskMessage(1), env.workDir);
  const values: Record<CliPlaceholder, string> = {
    prompt,
    model,
    baseUrl: `http://127.0.0.1:${AGENT_CLI_PORT}`,
    port: String(AGENT_CLI_PORT),
    key: proxy.agentKey,
    home: CLI_HOME,
  };
  const { argv, env: programEnv } = commandOf(spec, values, env.commandEnv);
  env.agentActs?.();
  return input.sandbox.exec(argv, {
    user: AGENT_USER,
    cwd: env.workDir,
    env: programEnv,
    timeoutMs: Math.max(1_000, deadline - Date.now()),
    signal: run.signal,
    ...(spec.prompt === 'stdin' ? { stdin: prompt } : {}),
  });
}

/**
 * Runs the program while a disk watch reads the sandbox's disk use: past the limit the program is stopped, as our
 * loops stop at theirs. A program that wrote past it and ended between two reads is caught by one last read.
 */
async function watchedRun(input: AgentRunInput, start: (signal: AbortSignal) => Promise<ExecResult>): Promise<ProgramEnd> {
  const { diskBytes } = input.limits;
  if (diskBytes === undefined) return { kind: 'ran', run: await start(input.signal) };
  const over = new AbortController();
  const watch = new DiskWatch(
    () => input.sandbox.diskUsage(),
    diskBytes,
    () => over.abort(new Error('disk limit')),
  );
  try {
    await watch.start();
    const run = await start(AbortSignal.any([input.signal, over.signal])).catch((err: unknown) => {
      if (over.signal.aborted && !input.signal.aborted) return undefined;
      throw err;
    });
    if (!run || (await watch.check())) return { kind: 'disk_limit', limitBytes: diskBytes };
    return { kind: 'ran', run };
  } finally {
    watch.dispose();
  }
}

/** The record of a sample the disk limit stopped: not graded, as in our loops, with the evidence of what it left. */
async function diskStopped(proxy: RecordingProxy, spec: AgentCliSpec, env: AgentEnvironment, end: ProgramEnd): Promise<AgentRunResult> {
  const { evidence, note } = await readEvidence(() => env.evidence(null), String);
  return cliResult(proxy, spec, {
    outcome: 'failed',
    stop: 'disk_limit',
    gradingLog: programLog(spec.name, end) + note,
    evidence,
    tamper: [],
    graded: false,
  });
}

/** Where the sample's time went, for the debug log (and `bench:scaffold`): answersMs is the proxy's and the model's. */
function timingOf(proxy: RecordingProxy, marks: { t0: number; started: number; ended: number; graded: number }) {
  return {
    setupMs: Math.round(marks.started - marks.t0),
    programMs: Math.round(marks.ended - marks.started),
    answersMs: proxy.exchanges.reduce((sum, e) => sum + e.ms, 0),
    gradeMs: Math.round(marks.graded - marks.ended),
  };
}

/**
 * One sample of an agent program: the environment as for the full scaffold, the recording proxy in front of the
 * model (the program gets a per-sample key and a loopback port, never the real key or a network), one run of the
 * program under the disk limit, then one grading of the work dir as it was left and the evidence. An API failure that
 * ended the program, a program the out-of-memory killer took, or one that ended before asking the model anything is
 * `error`, never the model's; a program that crashed on its own later is graded as it stands.
 */
export async function runAgentCli(input: AgentRunInput, prepared: { env: AgentEnvironment; setup: Promise<void> }): Promise<AgentRunResult> {
  const t0 = performance.now();
  const spec = cliSpecOf(input);
  const endpoint = endpointFor(input.model, spec);
  const deadline = Date.now() + (input.limits.timeMs ?? DEFAULT_CLI_TIME_MS);
  const proxy = new RecordingProxy({
    api: spec.api,
    upstream: endpoint.baseUrl,
    apiKey: endpoint.apiKey,
    ...(endpoint.headers ? { accountHeaders: endpoint.headers } : {}),
    model: input.model.name,
    prices: input.agentCli?.prices ?? defaultPrices(),
    limits: proxyLimits(input, deadline),
    ...(input.allowFlag ? { abortPhrase: FLAG_SENTINEL } : {}),
  });
  const { env } = prepared;
  try {
    await proxy.start();
    await prepared.setup;
    if (!input.sandbox.forwardPort) throw new Error('this sandbox cannot carry a port to the harness: an agent program cannot reach its model');
    await input.sandbox.forwardPort(AGENT_CLI_PORT, proxy.connect);
    await prepareHome(input.sandbox);
    const started = performance.now();
    const model = programModelName(input.model, spec, endpoint);
    const end = await watchedRun(input, (signal) => runProgram(input, env, spec, proxy, { deadline, model, signal }));
    const ended = performance.now();
    if (end.kind === 'disk_limit') {
      input.log.debug({ stop: 'disk_limit', requests: proxy.exchanges.length }, 'agent program stopped at the disk limit');
      return await diskStopped(proxy, spec, env, end);
    }
    const { run } = end;
    const failure = proxy.stopReason ? undefined : programFailure(spec.name, run, { requests: proxy.exchanges.length, refused: proxy.refused });
    const report = await env.gradeWorkdir(false);
    const { evidence, note } = await readEvidence(() => env.evidence(null), String);
    const timing = timingOf(proxy, { t0, started, ended, graded: performance.now() });
    const traffic = proxy.stopReason ? undefined : trafficEnd(proxy);
    const stop = traffic && 'overflow' in traffic ? 'context_limit' : stopOf(proxy, run);
    const gradingLog = `== final state: ${report.outcome}\n${report.log}\n\n${programLog(spec.name, end)}${note}`;
    const tamper = report.tamper ?? [];
    input.log.debug({ outcome: report.outcome, stop, exitCode: run.exitCode, requests: proxy.exchanges.length, timing }, 'agent program ended');
    const error = traffic && 'failed' in traffic ? `model API failed: ${traffic.failed}` : failure;
    if (error) return cliResult(proxy, spec, { outcome: 'error', stop: 'error', gradingLog, evidence, tamper, error, graded: false });
    return cliResult(proxy, spec, { outcome: outcomeOf(report, stop), stop, gradingLog, evidence, tamper, graded: true });
  } finally {
    await proxy.close();
  }
}
