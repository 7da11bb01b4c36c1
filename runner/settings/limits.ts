import { z } from 'zod';
import { positiveNumber, wholeNumber } from './shared-flags.js';
import { setting } from './setting-flags.js';

const positiveInt = z.number().int().positive();

/** One tool call or graded test run, seconds, unless the run says otherwise. */
export const DEFAULT_TOOL_TIMEOUT_S = 60;

/** Per-sample budgets; each one ends the sample with its own stop reason. */
export const LimitsSchema = z.strictObject({
  maxMessages: setting(positiveInt.default(100), {
    flag: '--max-messages <n>',
    help: 'per-sample limit on transcript messages',
    parse: wholeNumber(1),
  }),
  maxTokens: setting(positiveInt.optional(), { flag: '--max-tokens <n>', help: 'per-sample limit on input + output tokens', parse: wholeNumber(1) }),
  maxCostUsd: setting(z.number().positive().optional(), {
    flag: '--max-cost <usd>',
    help: 'per-sample limit on cost in US dollars',
    parse: positiveNumber,
  }),
  /** Wall time of one sample, seconds. */
  timeLimitS: setting(z.number().positive().optional(), {
    flag: '--time-limit <seconds>',
    help: 'per-sample wall-time limit',
    parse: positiveNumber,
  }),
  /** One tool call or one graded test run, seconds. */
  toolTimeoutS: setting(z.number().positive().default(DEFAULT_TOOL_TIMEOUT_S), {
    flag: '--tool-timeout <seconds>',
    help: 'limit per tool call and per graded test run',
    parse: positiveNumber,
  }),
  /** One model request, seconds: a model that does not answer within it is an API failure, tried again. */
  requestTimeoutS: setting(z.number().positive().default(300), {
    flag: '--request-timeout <seconds>',
    help: 'limit per model request; one that runs out is an API failure, tried again, never scored',
    parse: positiveNumber,
  }),
  /** CPUs of each sandbox; none: 1 for a function task, 2 for a repository (more where the SWE-bench harness gives more). */
  cpus: setting(z.number().positive().optional(), {
    flag: '--cpus <n>',
    help: "CPUs of each sandbox (default 1 for LiveCodeBench-style tasks; for a repository 2, or what the SWE-bench harness's spec gives it if more)",
    parse: positiveNumber,
  }),
  /** Memory of each sandbox, MiB, swap included; none: 1024 for a function task, 4096 for a repository. */
  memoryMb: setting(positiveInt.min(64).optional(), {
    flag: '--memory <MiB>',
    help: 'memory of each sandbox, MiB, no swap on top (default 1024 for LiveCodeBench-style tasks, 4096 for a repository)',
    parse: wholeNumber(64),
  }),
  /** The published harness's `add_budget_warning`: each result the agent reads says what it has used of its limits. */
  budgetWarning: setting(z.boolean().default(false), {
    flag: '--budget-warning',
    help: 'tell the agent, with each tool result (and each command output of the minimal SWE loop), how many of its messages (and, when limited, tokens and dollars) it has used and has left; the text is the template budget.warning',
  }),
  /** What the agent may write in its sandbox, MiB: more ends the sample (stop reason disk_limit). */
  diskLimitMb: setting(positiveInt.default(2048), {
    flag: '--disk-limit <MiB>',
    help: 'what the agent may write in its sandbox; past it the sample ends as failed, stop reason disk_limit',
    parse: wholeNumber(1),
  }),
});
export type Limits = z.infer<typeof LimitsSchema>;
