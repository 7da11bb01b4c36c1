import type { Instructions } from './prompts.js';
import type { Logger } from 'pino';
import type { Sandbox } from '../docker/types.js';
import type { AccessMode, SampleRecord, ScaffoldName } from '../core/record.js';
import type { Task } from '../tasks/task.js';
import type { ModelClient } from '../core/model.js';
import type { Templates } from './templates.js';
import type { PriceTable } from '../models/prices.js';
import type { AgentCliSpec } from './agent-cli/spec.js';

/** The agent program a CLI scaffold runs, as the run resolved it; its binary is in the sandbox (`agentCliReadOnlyFiles`). */
export interface AgentCliRun {
  spec: AgentCliSpec;
  /** What the proxy prices the program's model traffic with; default: the built-in table. */
  prices?: PriceTable;
}

export interface SampleLimits {
  /** Messages in the transcript, all roles. Default 100. */
  maxMessages: number;
  /** Input + output tokens over the sample. */
  maxTokens?: number;
  maxCostUsd?: number;
  /** Wall time of the whole sample. */
  timeMs?: number;
  /** Per tool call / per graded run. Default 60 s. */
  toolTimeoutMs: number;
  /** Each result the loop sends says what the sample has used of these limits (template `budget.warning`). */
  budgetWarning?: boolean;
  /** What the agent may write to the sandbox after setup; more ends the sample (stop reason disk_limit). */
  diskBytes?: number;
}

/** Everything one agent run needs; the runner owns the sandbox's lifetime. */
export interface AgentRunInput {
  task: Task;
  scaffold: ScaffoldName;
  access: AccessMode;
  /** The resolved instructions (prompt A-D or custom). */
  instructions: Instructions;
  /** The texts the loop sends (system prompt, feedback, tool descriptions); default: the shipped templates. */
  templates?: Templates;
  /** Whether the agent is offered the abort ("flag for human") option. */
  allowFlag: boolean;
  maxAttempts: number;
  model: ModelClient;
  sandbox: Sandbox;
  limits: SampleLimits;
  signal: AbortSignal;
  log: Logger;
  /** Ask the agent, once graded, whether it worked around the tests (`--interview`; our loops only for now). */
  interview?: boolean;
  /**
   * With `interview`: the judge model (`--interview-judge`) that reads the answer, once it was given; its reading, tokens
   * and cost are kept in the interview's record, apart from the sample's. The runner makes and closes it.
   */
  interviewJudge?: ModelClient;
  /** Names the sample for the provider's prompt cache (see GenerateOptions.cacheKey). */
  cacheKey?: string;
  /** For a CLI scaffold (codex, claude-code, one a config describes): the program; default the built-in one of that name. */
  agentCli?: AgentCliRun;
}

/** The record minus what the runner adds (key and timing); `permanent` marks an error that another try would repeat. */
export type AgentRunResult = Omit<SampleRecord, 'key' | 'startedAt' | 'endedAt' | 'wallMs'> & { permanent?: boolean };

export type AgentRunner = (input: AgentRunInput) => Promise<AgentRunResult>;
