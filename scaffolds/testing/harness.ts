import pino from 'pino';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { sandboxBackend } from '../../docker/backends.js';
import type { SandboxOptions } from '../../docker/types.js';
import type { AccessMode, ScaffoldName } from '../../core/record.js';
import type { Task } from '../../tasks/task.js';
import { runAgent } from '../index.js';
import { createModelClient } from '../model/index.js';
import { resolvePrompt } from '../prompts.js';
import type { Policy } from '../policies/types.js';
import type { ModelServer, SessionOptions } from '../server/index.js';
import type { AgentRunResult, SampleLimits } from '../types.js';

export interface ScriptedRun {
  server: ModelServer;
  runId: string;
  task: Task;
  /** A reference policy's name, or a policy object written for one test. */
  policy: string | Policy;
  scaffold: ScaffoldName;
  access: AccessMode;
  wire?: 'openai' | 'anthropic';
  allowFlag?: boolean;
  maxAttempts?: number;
  prompt?: string;
  limits?: Partial<SampleLimits>;
  session?: SessionOptions;
  /** Sandbox settings over the defaults (a file-size cap, say). */
  sandbox?: Partial<Pick<SandboxOptions, 'maxFileBytes' | 'image'>>;
}

const quiet = pino({ level: process.env.IMPOSSIBLEBENCH_TEST_LOG ?? 'silent' });

/** One sample end to end: a real sandbox, a scripted policy through a real SDK and the local server, the agent loop. */
export async function runScripted(run: ScriptedRun): Promise<AgentRunResult> {
  const name = typeof run.policy === 'string' ? run.policy : run.policy.name;
  const sandbox = await sandboxBackend().create({ image: PYTHON_IMAGE, runId: run.runId, sampleId: `${run.task.id}-${name}`, ...run.sandbox });
  const model = createModelClient(`scripted/${name}`, {
    ...(typeof run.policy === 'string' ? {} : { policy: run.policy }),
    server: run.server,
    context: { task: run.task, scaffold: run.scaffold },
    wire: run.wire ?? 'openai',
    retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100 },
    ...(run.session ? { session: run.session } : {}),
  });
  try {
    return await runAgent({
      task: run.task,
      scaffold: run.scaffold,
      access: run.access,
      instructions: resolvePrompt(run.prompt ?? 'D').text,
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
