import type { Logger } from 'pino';
import { deferredSandbox } from '../../docker/deferred.js';
import { isPermanentError, lostEngine, stopsRun } from '../../docker/errors.js';
import type { Sandbox, SandboxOptions, SandboxSlot } from '../../docker/types.js';
import type { SampleMutation, SampleRecord, ScaffoldName } from '../../core/record.js';
import type { AgentRunner, SampleLimits } from '../../scaffolds/types.js';
import type { ResolvedPrompt } from '../../scaffolds/prompts.js';
import { errorResult } from '../../scaffolds/error-result.js';
import type { ModelClient } from '../../core/model.js';
import type { Task } from '../../tasks/task.js';
import type { Experiment } from '../settings/config.js';
import type { PlannedSample } from './matrix.js';

/** What labels a sample's sandbox, and the slot reserved for it where the backend places sandboxes. */
export type SandboxIds = Pick<SandboxOptions, 'runId' | 'sampleId' | 'slot'>;

/** The parts of the product a sample runs through; the CLI wires the real ones (see `wiring.ts`). */
export interface SampleServices {
  /**
   * The sandbox of a sample of `task` in `scaffold`, labelled by `ids`: its image (the task's, or the history image
   * made for it), limits and files (an agent program's binary) are chosen here, once.
   */
  createSandbox(task: Task, scaffold: ScaffoldName, ids: SandboxIds, log?: Logger): Promise<Sandbox>;
  /**
   * A sandbox slot for a sample of `task`, taken now if one is free where its image is (see `SandboxPlacement.reserve`);
   * only where the backend places sandboxes by image.
   */
  reserveSandbox?(task: Task): SandboxSlot | undefined;
  /** The samples the run is about to start (one task per sample), and then each one that will not run again. */
  samplesPlanned?(tasks: Task[]): void;
  sampleFinished?(task: Task): Promise<void>;
  /** A fresh client per sample: a scripted model keeps one server session per sample. */
  createModel(spec: string, sample: PlannedSample): Promise<ModelClient>;
  /** The `--interview-judge` model's client for a sample, made and closed with it like the agent's. */
  createInterviewJudge?(spec: string, sample: PlannedSample): Promise<ModelClient>;
  /** The instructions for a prompt letter or custom text. */
  instructions(prompt: string): ResolvedPrompt;
  runAgent: AgentRunner;
}

export interface SampleContext {
  runId: string;
  experiment: Experiment;
  services: SampleServices;
  /** Aborted when the run is interrupted. */
  signal: AbortSignal;
  log: Logger;
  /**
   * After an interrupt, how long a running agent gets to return on its own before the runner
   * stops waiting and removes its sandbox (which ends whatever still runs inside).
   */
  abortGraceMs?: number;
}

/** What became of one try of a sample; `permanent`: an error that another try would only repeat. */
export type SampleEnd =
  /** `lostEngine`: the engine (of a pool) whose loss ended this try. */
  | { kind: 'record'; record: SampleRecord; permanent?: boolean; lostEngine?: string }
  | { kind: 'interrupted' }
  /** No sandbox can start anywhere (every engine gone): no record, the run stops, the sample stays unfinished. */
  | { kind: 'stopped'; reason: string };

export function sampleLimits(experiment: Experiment): SampleLimits {
  const l = experiment.limits;
  return {
    maxMessages: l.maxMessages,
    toolTimeoutMs: l.toolTimeoutS * 1000,
    diskBytes: l.diskLimitMb * 1024 * 1024,
    ...(l.budgetWarning ? { budgetWarning: true } : {}),
    ...(l.maxTokens !== undefined ? { maxTokens: l.maxTokens } : {}),
    ...(l.maxCostUsd !== undefined ? { maxCostUsd: l.maxCostUsd } : {}),
    ...(l.timeLimitS !== undefined ? { timeMs: l.timeLimitS * 1000 } : {}),
  };
}

/** How the sample's variant was made, from its task's mutation record; nothing for an original. */
export function sampleMutation(task: Task): { mutation?: SampleMutation } {
  const m = task.mutation;
  if (!m || task.variant === 'original') return {};
  const made: SampleMutation = { origin: m.origin ?? 'patch', strategy: m.strategy };
  if (m.model) made.model = m.model;
  if (m.tries) made.tries = m.tries;
  return { mutation: made };
}

/** An infrastructure or API failure: never the model's fault, so never scored as a failure. */
export function errorRecord(sample: PlannedSample, startedAt: Date, error: unknown): SampleRecord {
  const ended = new Date();
  return {
    ...errorResult(describeError(error)),
    key: sample.key,
    startedAt: startedAt.toISOString(),
    endedAt: ended.toISOString(),
    wallMs: ended.getTime() - startedAt.getTime(),
    ...sampleMutation(sample.task),
  };
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}`;
  return String(error);
}

/** How far past its time limit a sample may run before the runner gives up on it. */
const OVERRUN_MS = 60_000;

/**
 * The time limit's safety net. The interview (and its judge) come after a sample its limit may have ended, and no
 * limit of the sample stops them: each may take a whole request's time on top.
 */
export function safetyNetMs(experiment: Pick<Experiment, 'interview' | 'interviewJudge' | 'limits'>, timeMs: number): number {
  const asks = experiment.interview ? (experiment.interviewJudge ? 2 : 1) : 0;
  return timeMs + OVERRUN_MS + asks * experiment.limits.requestTimeoutS * 1000;
}

function overrunMessage(netMs: number, timeMs: number): string {
  return `the sample ran more than ${Math.round(netMs / 1000)} s, past its ${Math.round(timeMs / 1000)} s time limit, and was stopped`;
}

/** Resolves when the signal aborts and then `graceMs` more pass; never rejects. */
function afterAbort(signal: AbortSignal, graceMs: number): { promise: Promise<'gone'>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const promise = new Promise<'gone'>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve('gone'), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    promise,
    cancel: () => {
      if (timer) clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    },
  };
}

/** What one try of a sample holds: released in `finally`, whatever happens. */
interface TryState {
  sandbox?: Sandbox;
  model?: ModelClient;
  judge?: ModelClient;
  /** Set once `executeSample` stops waiting: a sandbox or client that arrives later is released at once. */
  abandoned: boolean;
  /** Where a sample's time goes: the sandbox's start, the agent loop (model and grading), the release. */
  timing: { createMs: number; agentMs: number; releaseMs: number };
  t0: number;
}

/** The try itself: sandbox and model client, the agent loop, and the record. */
async function runTry(
  sample: PlannedSample,
  ctx: SampleContext,
  slot: SandboxSlot | undefined,
  state: TryState,
  agent: { signal: AbortSignal; log: Logger; started: Date },
): Promise<SampleRecord & { permanent?: boolean }> {
  const { log, started } = agent;
  const { timing, t0 } = state;
  // The sandbox starts while the model client connects and the first request is in flight; every sandbox call
  // waits for it. One that arrives after this function stopped waiting is removed in `finally` all the same.
  const creating = ctx.services.createSandbox(
    sample.task,
    sample.key.scaffold,
    { runId: ctx.runId, sampleId: sample.id, ...(slot ? { slot } : {}) },
    log,
  );
  const box = deferredSandbox(creating);
  state.sandbox = box;
  void box.ready.then(() => (timing.createMs = performance.now() - t0));
  // A sandbox that cannot start is the failure to report, before whatever became of the client.
  const client = await ctx.services.createModel(sample.key.model, sample).catch(async (err: unknown) => {
    await creating;
    throw err;
  });
  if (state.abandoned) {
    await client.close?.();
    throw ctx.signal.reason;
  }
  const model = (state.model = client);
  const judge = ctx.experiment.interview && ctx.experiment.interviewJudge ? await interviewJudgeFor(sample, ctx, state, log) : undefined;
  const tAgent = performance.now();
  const result = await ctx.services.runAgent({
    task: sample.task,
    scaffold: sample.key.scaffold,
    access: sample.key.access,
    instructions: ctx.services.instructions(sample.prompt),
    allowFlag: ctx.experiment.allowFlag,
    ...(ctx.experiment.interview ? { interview: true } : {}),
    ...(judge ? { interviewJudge: judge } : {}),
    maxAttempts: sample.key.maxAttempts,
    model,
    sandbox: box,
    limits: sampleLimits(ctx.experiment),
    signal: agent.signal,
    log,
    cacheKey: `${ctx.runId}/${sample.id}`,
  });
  timing.agentMs = performance.now() - tAgent;
  // A sample whose engine went away mid-way has an outcome the model did not earn: an infrastructure error.
  const lost = await box.engineLost?.();
  if (lost) throw lost;
  const ended = new Date();
  return {
    ...result,
    key: sample.key,
    ...sampleMutation(sample.task),
    startedAt: started.toISOString(),
    endedAt: ended.toISOString(),
    wallMs: ended.getTime() - started.getTime(),
  };
}

/**
 * The sample's interview judge. A client that cannot be made is the judge's failure, not the sample's: the stand-in
 * says why when asked, so the interview's record carries it and the sample and its grade stand.
 */
async function interviewJudgeFor(sample: PlannedSample, ctx: SampleContext, state: TryState, log: Logger): Promise<ModelClient> {
  const spec = ctx.experiment.interviewJudge!;
  const make = ctx.services.createInterviewJudge;
  try {
    if (!make) throw new Error('this run cannot make an interview judge');
    state.judge = await make(spec, sample);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    log.warn({ err }, 'could not make the interview judge; its reading is recorded as failed');
    state.judge = { name: spec, generate: () => Promise.reject(new Error(`could not make the judge: ${describeError(err)}`)) };
  }
  if (state.abandoned) {
    await state.judge.close?.();
    throw ctx.signal.reason;
  }
  return state.judge;
}

/** A try that threw: the run stops (no sandbox anywhere), or an error record, blamed on a lost engine where one was lost. */
async function failedTry(
  sample: PlannedSample,
  caught: unknown,
  state: TryState,
  agent: { signal: AbortSignal; log: Logger; started: Date; timeMs: number | undefined; netMs: number | undefined },
): Promise<SampleEnd> {
  const { log } = agent;
  if (stopsRun(caught)) {
    log.error({ err: caught }, 'no sandbox can start anywhere; sample left unfinished');
    return { kind: 'stopped', reason: describeError(caught) };
  }
  // Whatever failed while the sample's engine was going away failed because of that.
  const lostFirst = lostEngine(caught) === undefined ? await state.sandbox?.engineLost?.().catch(() => undefined) : undefined;
  const error = lostFirst ?? (agent.signal.aborted ? new Error(overrunMessage(agent.netMs!, agent.timeMs!)) : caught);
  log.warn({ err: error }, 'sample failed for a reason outside the model');
  const lost = lostEngine(error);
  return {
    kind: 'record',
    record: errorRecord(sample, agent.started, error),
    ...(isPermanentError(error) ? { permanent: true } : {}),
    ...(lost ? { lostEngine: lost } : {}),
  };
}

/** Closes the model client and removes the sandbox, timing it. */
async function releaseTry(state: TryState, log: Logger): Promise<void> {
  state.abandoned = true;
  const tRelease = performance.now();
  await Promise.allSettled([
    state.model?.close?.(),
    state.judge?.close?.(),
    (async () => {
      if (state.sandbox) await state.sandbox.destroy();
    })().catch((err: unknown) => log.warn({ err }, 'could not remove the sandbox; `impossiblebench cleanup` will')),
  ]);
  state.timing.releaseMs = performance.now() - tRelease;
  log.info({ timing: roundAll(state.timing) }, 'sample released');
}

/**
 * One try of one sample: a fresh sandbox labelled with the run and sample, the agent loop, and
 * the record. The sandbox and the model client are released in `finally`, whatever happens.
 * An interrupted sample yields no record at all: it stays unfinished, to be run on resume. `slot`: a
 * sandbox slot the run reserved for it (the caller gives it back if the sandbox did not use it).
 */
export async function executeSample(sample: PlannedSample, ctx: SampleContext, slot?: SandboxSlot): Promise<SampleEnd> {
  const started = new Date();
  const log = ctx.log.child({ sample: sample.id, key: sample.key });
  // The agent stops on an interrupt, or (a safety net behind the loop's own time limit) when it
  // overruns that limit by a minute: a hung sample must not hold the run forever.
  const timeMs = ctx.experiment.limits.timeLimitS === undefined ? undefined : ctx.experiment.limits.timeLimitS * 1000;
  const netMs = timeMs === undefined ? undefined : safetyNetMs(ctx.experiment, timeMs);
  const agentSignal = netMs === undefined ? ctx.signal : AbortSignal.any([ctx.signal, AbortSignal.timeout(netMs)]);
  const grace = afterAbort(agentSignal, ctx.abortGraceMs ?? 5_000);
  const state: TryState = { abandoned: false, timing: { createMs: 0, agentMs: 0, releaseMs: 0 }, t0: performance.now() };
  try {
    if (ctx.signal.aborted) return { kind: 'interrupted' };
    const work = runTry(sample, ctx, slot, state, { signal: agentSignal, log, started });
    // Keep an abandoned agent's late rejection from surfacing as an unhandled one.
    work.catch(() => {});
    const end = await Promise.race([work, grace.promise]);
    if (!ctx.signal.aborted && agentSignal.aborted) throw new Error(overrunMessage(netMs!, timeMs!));
    if (end === 'gone' || ctx.signal.aborted) {
      log.info('sample interrupted; left unfinished');
      return { kind: 'interrupted' };
    }
    const { permanent, ...record } = end;
    log.info({ outcome: record.outcome, stopReason: record.stopReason, attempts: record.attempts, wallMs: record.wallMs }, 'sample ended');
    return { kind: 'record', record, ...(permanent ? { permanent } : {}) };
  } catch (caught) {
    if (ctx.signal.aborted) return { kind: 'interrupted' };
    return await failedTry(sample, caught, state, { signal: agentSignal, log, started, timeMs, netMs });
  } finally {
    grace.cancel();
    await releaseTry(state, log);
  }
}

function roundAll(o: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));
}
