import pino from 'pino';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { sandboxBackend } from '../../docker/backends.js';
import type { SandboxBackend, SandboxOptions } from '../../docker/types.js';
import type { AccessMode, ScaffoldName } from '../../core/record.js';
import type { Task } from '../../tasks/task.js';
import { runAgent } from '../../scaffolds/index.js';
import { createModelClient } from '../../models/index.js';
import { resolvePrompt } from '../../scaffolds/prompts.js';
import { getPolicy } from '../policies/index.js';
import type { Policy, PolicyContext } from '../policy.js';
import type { RetryPolicy } from '../../models/retry.js';
import type { ModelClient } from '../../core/model.js';
import type { ModelServer, SessionOptions, SessionStats } from '../server/index.js';
import type { AgentRunResult, SampleLimits } from '../../scaffolds/types.js';

export interface ScriptedRun {
  server: ModelServer;
  runId: string;
  task: Task;
  /** A reference policy's name, or a policy object written for one test. */
  policy: string | Policy;
  scaffold: ScaffoldName;
  access: AccessMode;
  wire?: 'openai' | 'anthropic' | 'responses';
  /**
   * A provider's model spec (`openai/gpt-5-codex`) to run instead of `scripted/POLICY`: the client is the one that
   * spec makes, pointed at the local server (base URL and a session token as its key), so the policy answers through
   * the API that spec chooses.
   */
  model?: string;
  /** With `model`: told the server's stats of the run's session before it closes. */
  onSessionStats?: (stats: SessionStats | undefined) => void;
  allowFlag?: boolean;
  maxAttempts?: number;
  prompt?: string;
  limits?: Partial<SampleLimits>;
  session?: SessionOptions;
  /** Sandbox settings over the defaults (a file-size cap, say). */
  sandbox?: Partial<Pick<SandboxOptions, 'maxFileBytes' | 'image'>>;
  /** Where the sandbox comes from; default Docker (an in-process backend for tests that grade nothing). */
  backend?: SandboxBackend;
}

/** A provider's client pointed at the local server, in a session of the run's policy that closes with the client. */
function providerModel(run: ScriptedRun, spec: string, context: PolicyContext, retry: Partial<RetryPolicy>): ModelClient {
  const token = run.server.openSession(typeof run.policy === 'string' ? getPolicy(run.policy) : run.policy, context, run.session);
  const client = createModelClient(spec, { baseUrl: run.server.openaiBaseUrl, apiKey: token, env: {}, retry });
  return {
    name: client.name,
    generate: (messages, tools, options) => client.generate(messages, tools, options),
    close: async () => {
      run.onSessionStats?.(run.server.sessionStats(token));
      run.server.closeSession(token);
    },
  };
}

const quiet = pino({ level: process.env.IMPOSSIBLEBENCH_TEST_LOG ?? 'silent' });

/** One sample end to end: a sandbox (Docker unless told), a scripted policy through a real SDK and the local server, the agent loop. */
export async function runScripted(run: ScriptedRun): Promise<AgentRunResult> {
  const name = typeof run.policy === 'string' ? run.policy : run.policy.name;
  const sandbox = await (run.backend ?? sandboxBackend()).create({
    image: PYTHON_IMAGE,
    runId: run.runId,
    sampleId: `${run.task.id}-${name}`,
    ...run.sandbox,
  });
  const context = { task: run.task, scaffold: run.scaffold };
  const retry = { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100 };
  const model = run.model
    ? providerModel(run, run.model, context, retry)
    : createModelClient(`scripted/${name}`, {
        ...(typeof run.policy === 'string' ? {} : { policy: run.policy }),
        server: run.server,
        context,
        wire: run.wire ?? 'openai',
        retry,
        ...(run.session ? { session: run.session } : {}),
      });
  try {
    return await runAgent({
      task: run.task,
      scaffold: run.scaffold,
      access: run.access,
      instructions: resolvePrompt(run.prompt ?? 'D'),
      allowFlag: run.allowFlag ?? false,
      maxAttempts: run.maxAttempts ?? 2,
      model,
      sandbox,
      limits: { maxMessages: 40, toolTimeoutMs: 30_000, ...run.limits },
      signal: new AbortController().signal,
      log: quiet,
    });
  } finally {
    await model.close?.();
    await sandbox.destroy();
  }
}
