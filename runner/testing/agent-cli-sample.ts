import pino from 'pino';
import { sandboxBackend } from '../../docker/backends.js';
import type { AccessMode } from '../../core/record.js';
import { createModelClient } from '../../models/index.js';
import type { Policy } from '../../simulated/policy.js';
import type { ModelServer, SessionOptions, SessionStats } from '../../simulated/server/index.js';
import { taskImage } from '../../tasks/images.js';
import type { Task } from '../../tasks/task.js';
import { runAgent } from '../../scaffolds/index.js';
import { resolvePrompt } from '../../scaffolds/prompts.js';
import type { AgentRunResult, SampleLimits } from '../../scaffolds/types.js';
import { requireAgentBinary } from '../../scaffolds/agent-cli/binaries.js';
import { agentCliReadOnlyFiles } from '../../scaffolds/agent-cli/run.js';
import { type AgentCliSpec, BUILTIN_AGENT_CLIS } from '../../scaffolds/agent-cli/spec.js';

export interface CliRun {
  server: ModelServer;
  runId: string;
  task: Task;
  scaffold: 'codex' | 'claude-code';
  /** A program a config describes, run instead of the built-in one (its binary a file on this machine). */
  program?: AgentCliSpec;
  /** The sandbox's memory, when a test needs less than the default. */
  memoryBytes?: number;
  access: AccessMode;
  /** A reference policy's name, or a policy object written for one test. */
  policy: string | Policy;
  allowFlag?: boolean;
  limits?: Partial<SampleLimits>;
  /** The session's faults on the local server (server errors, a context overflow). */
  session?: SessionOptions;
  /** Told the server's stats of the run's session before it closes. */
  onSessionStats?: (stats: SessionStats | undefined) => void;
}

const quiet = pino({ level: process.env.IMPOSSIBLEBENCH_TEST_LOG ?? 'silent' });

/** The local server's wire for a program's API. */
function wireOf(spec: AgentCliSpec): 'openai' | 'anthropic' | 'responses' {
  return spec.api === 'anthropic' ? 'anthropic' : spec.api === 'openai-responses' ? 'responses' : 'openai';
}

/**
 * One sample of a real agent program, as the runner makes it: the task's sandbox with the installed binary shown
 * read-only, a scripted model on the program's API, and `runAgent`. A missing binary fails with its install command.
 */
export async function runCli(run: CliRun): Promise<AgentRunResult> {
  const spec = run.program ?? BUILTIN_AGENT_CLIS[run.scaffold].spec;
  const binary = run.program?.binary ?? requireAgentBinary(spec);
  const name = typeof run.policy === 'string' ? run.policy : run.policy.name;
  const sandbox = await sandboxBackend().create({
    image: taskImage(run.task),
    runId: run.runId,
    sampleId: `${spec.name}-${run.task.id}-${run.task.variant}-${name}-${run.access}`,
    readOnlyFiles: agentCliReadOnlyFiles(spec, binary),
    ...(run.memoryBytes ? { memoryBytes: run.memoryBytes } : {}),
  });
  const model = createModelClient(`scripted/${name}`, {
    ...(typeof run.policy === 'string' ? {} : { policy: run.policy }),
    server: run.server,
    context: { task: run.task, scaffold: spec.name },
    wire: wireOf(spec),
    ...(run.session ? { session: run.session } : {}),
    retry: { maxRetries: 1, baseDelayMs: 10, maxDelayMs: 100 },
  });
  const token = model.endpoint?.(spec.api)?.apiKey ?? '';
  try {
    return await runAgent({
      task: run.task,
      scaffold: spec.name,
      access: run.access,
      ...(run.program ? { agentCli: { spec: run.program } } : {}),
      instructions: resolvePrompt('D'),
      allowFlag: run.allowFlag ?? false,
      maxAttempts: 1,
      model,
      sandbox,
      limits: { maxMessages: 60, toolTimeoutMs: 60_000, timeMs: 10 * 60_000, ...run.limits },
      signal: new AbortController().signal,
      log: quiet,
    });
  } finally {
    run.onSessionStats?.(run.server.sessionStats(token));
    await model.close?.();
    await sandbox.destroy();
  }
}
