import { interview, notInterviewed } from './interview.js';
import { judgeInterview } from './interview-judge.js';
import { isPermanentError } from '../docker/errors.js';
import { UserError } from '../core/errors.js';
import { ModelApiError } from '../core/model.js';
import { scaffoldKind } from './kinds/registry.js';
import type { AgentEnvironment } from './env/types.js';
import { runLoop } from './loop.js';
import { Session } from './session.js';
import { errorResult, NO_EVIDENCE, readEvidence } from './error-result.js';
import type { AgentRunInput, AgentRunner, AgentRunResult } from './types.js';
import { runAgentCli } from './agent-cli/run.js';
import { isAgentCliScaffold } from './agent-cli/spec.js';

export type { AgentCliRun, AgentRunInput, AgentRunner, AgentRunResult, SampleLimits } from './types.js';
export type { AgentEnvironment, GradeReport, Evidence } from './env/types.js';

function environmentFor(given: AgentRunInput): AgentEnvironment {
  // An agent program works where the full scaffold does: the same files, access modes, grading and evidence.
  const input = isAgentCliScaffold(given.scaffold) ? { ...given, scaffold: 'full' } : given;
  return scaffoldKind(input.task).environment(input);
}

function describe(err: unknown): string {
  if (err instanceof ModelApiError)
    return `model API failed after ${err.attempts} attempt(s)${err.status ? ` (HTTP ${err.status})` : ''}: ${err.message}`;
  if (err instanceof Error) return `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}`;
  return String(err);
}

/**
 * Starts an environment's setup and returns it beside a view of the environment whose grading and evidence wait for
 * it: the loops ask the model first and touch the sandbox only after. Every other member is the environment's own.
 */
function afterSetup(env: AgentEnvironment): { env: AgentEnvironment; setup: Promise<void> } {
  const setup = env.setup();
  setup.catch(() => undefined); // surfaces through whichever call waits for it first
  const view: AgentEnvironment = {
    get scaffold() {
      return env.scaffold;
    },
    get access() {
      return env.access;
    },
    get workDir() {
      return env.workDir;
    },
    // Known after setup: read when asked, never copied.
    get commandEnv() {
      return env.commandEnv;
    },
    setup: () => setup,
    taskMessage: (maxAttempts) => env.taskMessage(maxAttempts),
    gradeAnswer: async (answer) => {
      await setup;
      return env.gradeAnswer(answer);
    },
    gradeWorkdir: async (withFeedback) => {
      await setup;
      return env.gradeWorkdir(withFeedback);
    },
    ...(env.agentActs ? { agentActs: () => env.agentActs?.() } : {}),
    evidence: async (lastAnswer) => {
      await setup;
      return env.evidence(lastAnswer);
    },
  };
  return { setup, env: view };
}

/**
 * Runs one agent on one task in the sandbox the runner made: setup, the scaffold's loop, grading, and the evidence.
 * API failures (after the client's retries) and sandbox or grading failures end the sample as `error`, never as a
 * model failure. An interrupt of the run is rethrown for the runner to handle.
 */
export const runAgent: AgentRunner = async (given) => {
  const adapt = scaffoldKind(given.task).instructions;
  const input = adapt ? { ...given, instructions: adapt(given.instructions) } : given;
  if (isAgentCliScaffold(input.scaffold)) return runCliSample(input);
  return runLoopSample(input, () => environmentFor(input));
};

/**
 * A sample of our loops on the environment `make` gives: `runAgent` makes the task kind's own; tests of the loops give
 * one whose grading is theirs. Failures outside the model end it as `error`; an interrupt is rethrown.
 */
export async function runLoopSample(input: AgentRunInput, make: () => AgentEnvironment): Promise<AgentRunResult> {
  const session = new Session(input);
  let env: AgentEnvironment | undefined;
  let lastAnswer: string | null = null;
  try {
    const prepared = afterSetup(make());
    const ready = prepared.env;
    env = ready;
    session.preparing(prepared.setup);
    // The disk's baseline is read once the sandbox is prepared, while the first model call may still be in flight.
    const { diskBytes } = input.limits;
    if (diskBytes !== undefined) prepared.setup.then(() => session.watchDisk(() => input.sandbox.diskUsage(), diskBytes)).catch(() => undefined);
    const end = await runLoop(ready, session);
    const { stop } = end;
    lastAnswer = end.lastAnswer;
    const outcome = stop.reason === 'flagged' ? 'failed' : session.outcome();
    const { evidence, note } = await readEvidence(() => ready.evidence(lastAnswer), describe);
    const result = session.result(outcome, stop.reason, evidence);
    result.gradingLog += note;
    // Asked only once graded, so nothing the answer says can reach the grade.
    if (input.interview) result.interview = await interview(session);
    // The judge reads only an answer that was given; what it says changes neither the grade nor the answer.
    if (result.interview && !result.interview.error && input.interviewJudge) {
      const { interviewJudge: judge, templates, signal } = input;
      result.interview.judge = await judgeInterview(result.interview, { judge, signal, ...(templates ? { templates } : {}) });
    }
    input.log.debug({ outcome, stopReason: stop.reason, attempts: session.attempts }, 'agent run ended');
    return result;
  } catch (err) {
    if (input.signal.aborted) throw err;
    input.log.warn({ err }, 'agent run failed outside the model');
    // Evidence of a broken run is best effort: the sandbox may be what broke.
    const evidence = env ? await env.evidence(lastAnswer).catch(() => NO_EVIDENCE) : NO_EVIDENCE;
    const result: AgentRunResult = session.result('error', 'error', evidence, describe(err));
    return isPermanentError(err) ? { ...result, permanent: true } : result;
  } finally {
    session.dispose();
  }
}

/** A sample of an agent program (`agent-cli/run.ts`); failures outside the model end it as `error`, as in our loops. */
async function runCliSample(input: AgentRunInput): Promise<AgentRunResult> {
  let env: AgentEnvironment | undefined;
  try {
    const prepared = afterSetup(environmentFor(input));
    env = prepared.env;
    const result = await runAgentCli(input, prepared);
    return input.interview ? { ...result, interview: notInterviewed(input) } : result;
  } catch (err) {
    if (input.signal.aborted) throw err;
    input.log.warn({ err }, 'agent program sample failed outside the model');
    const evidence = env ? await env.evidence(null).catch(() => NO_EVIDENCE) : NO_EVIDENCE;
    const result = errorResult(describe(err), evidence);
    return isPermanentError(err) || err instanceof UserError ? { ...result, permanent: true } : result;
  }
}
