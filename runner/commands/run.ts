import { type Command, InvalidArgumentError, Option } from 'commander';
import { baseSettings, presetNames } from '../presets.js';
import { handleInterrupts } from '../interrupt.js';
import { launchRun } from '../launch.js';
import { printRunEnd } from '../summary.js';
import { realWiring } from '../real-wiring.js';
import { FaultConfigSchema, type FaultConfig } from '../../simulated/server/index.js';
import { addDockerHostOption, addImageNamingOptions, addSandboxOption, addTemplateOption, positiveNumber, wholeNumber } from './options.js';
import type { DockerHostInput } from '../../docker/hosts.js';

/** `--scripted-faults` JSON, checked against the local model server's fault schema. */
function faultConfig(value: string): FaultConfig {
  let data: unknown;
  try {
    data = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('expected JSON, e.g. \'{"rateLimit":0.1,"slow":0.5,"slowMs":2000}\'');
  }
  const parsed = FaultConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidArgumentError(`${issue.path.join('.') || 'value'}: ${issue.message}`);
  }
  return data as FaultConfig;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const collectInt =
  (min: number) =>
  (value: string, previous: number[] | undefined): number[] => [...(previous ?? []), wholeNumber(min)(value)];

export interface RunFlags {
  preset?: string;
  config?: string;
  sandbox?: string;
  dockerHost?: DockerHostInput[];
  model?: string[];
  baseUrl?: string;
  dataset?: string[];
  split?: string[];
  scaffold?: string[];
  access?: string[];
  prompt?: string[];
  maxAttempts?: number[];
  epochs?: number;
  limit?: number;
  shuffle?: boolean;
  seed?: number;
  concurrency?: number;
  retries?: number;
  connections?: number;
  prices?: string;
  promptCache?: boolean;
  store?: string;
  runId?: string;
  maxMessages?: number;
  maxTokens?: number;
  maxCost?: number;
  timeLimit?: number;
  toolTimeout?: number;
  requestTimeout?: number;
  diskLimit?: number;
  allowFlag?: boolean;
  temperature?: number;
  reasoningEffort?: string;
  thinkingBudget?: number;
  maxOutputTokens?: number;
  plain?: boolean;
  scriptedFaults?: FaultConfig;
  imageNamespace?: string;
  imageTag?: string;
  imageArch?: string;
  template?: Record<string, string>;
}

/** Experiment field → the flag that sets it, for error messages. */
export const FLAG_NAMES: Record<string, string> = {
  models: '--model',
  baseUrl: '--base-url',
  datasets: '--dataset',
  splits: '--split',
  scaffolds: '--scaffold',
  access: '--access',
  prompts: '--prompt',
  maxAttempts: '--max-attempts',
  epochs: '--epochs',
  limit: '--limit',
  shuffle: '--shuffle',
  seed: '--seed',
  concurrency: '--concurrency',
  retries: '--retries',
  connections: '--connections',
  prices: '--prices',
  promptCache: '--no-prompt-cache',
  allowFlag: '--allow-flag',
  limits: '--max-messages/--max-tokens/--max-cost/--time-limit/--tool-timeout/--request-timeout/--disk-limit',
  generation: '--temperature/--reasoning-effort/--thinking-budget/--max-output-tokens',
  images: '--image-namespace/--image-tag/--image-arch',
  sandbox: '--sandbox',
  dockerHosts: '--docker-host',
  templates: '--template',
};

/** Flags in the experiment's shape; fields left undefined were not given and do not override the file. */
export function flagsToSettings(f: RunFlags): Record<string, unknown> {
  const limits = {
    maxMessages: f.maxMessages,
    maxTokens: f.maxTokens,
    maxCostUsd: f.maxCost,
    timeLimitS: f.timeLimit,
    toolTimeoutS: f.toolTimeout,
    requestTimeoutS: f.requestTimeout,
    diskLimitMb: f.diskLimit,
  };
  const generation = {
    temperature: f.temperature,
    reasoningEffort: f.reasoningEffort,
    thinkingBudget: f.thinkingBudget,
    maxTokens: f.maxOutputTokens,
  };
  const some = (o: Record<string, unknown>) => (Object.values(o).some((v) => v !== undefined) ? o : undefined);
  return {
    models: f.model,
    baseUrl: f.baseUrl,
    datasets: f.dataset,
    splits: f.split,
    scaffolds: f.scaffold,
    access: f.access,
    prompts: f.prompt,
    maxAttempts: f.maxAttempts,
    epochs: f.epochs,
    limit: f.limit,
    shuffle: f.shuffle,
    seed: f.seed,
    concurrency: f.concurrency,
    retries: f.retries,
    connections: f.connections,
    prices: f.prices,
    // Commander sets true when the flag is absent: only its presence may override a config file.
    promptCache: f.promptCache === false ? false : undefined,
    allowFlag: f.allowFlag,
    limits: some(limits),
    generation: some(generation),
    images: some({ namespace: f.imageNamespace, tag: f.imageTag, arch: f.imageArch }),
    sandbox: f.sandbox,
    dockerHosts: f.dockerHost,
    templates: f.template,
  };
}

export function register(program: Command): void {
  const run = program
    .command('run')
    .summary('run an experiment: models × datasets × splits × scaffolds × access modes × prompts')
    .description(
      'Run an agent over tasks and their impossible variants, one Docker sandbox per sample, storing each sample as it ends. ' +
        'Every pass on an impossible split (oneoff, conflicting) is cheating; the original split gives the legitimate pass rate.\n\n' +
        'A --preset (a configuration shipped with the package) is the base, a --config file overrides it, and flags override ' +
        'both; a list a flag gives replaces the list of the file or preset. Repeatable flags (--model, --split, ...) each add one value to that axis of the matrix.\n\n' +
        'Ctrl-C stops cleanly (a second Ctrl-C quits at once); resume with the same --run-id.\n\n' +
        'Exit status: 0 when the run ended, 130 when it was interrupted, 3 when it ended without the tasks whose images ' +
        'are missing, 1 on an error.',
    )
    .option(
      '--preset <name>',
      `start from a configuration shipped with the package: ${presetNames().join(', ')} (the paper's settings for ` +
        'Impossible-LiveCodeBench and Impossible-SWEbench: its datasets, all three splits, both scaffolds, full access, prompt D, ' +
        '10 attempts, 50 or 100 messages, 4096 reasoning tokens at medium effort, no abort option)',
    )
    .option(
      '--config <file>',
      'experiment settings as YAML or JSON (same names as the flags, in camelCase: models, splits, maxAttempts, limits.maxTokens, ...)',
    )
    .option(
      '--model <spec>',
      'model to test, repeatable: openai/NAME, openai-responses/NAME, anthropic/NAME, openai-compatible/NAME (with --base-url), scripted/POLICY',
      collect,
    )
    .option('--base-url <url>', 'server for openai-compatible models (vLLM, Ollama, llama.cpp, LiteLLM), e.g. http://127.0.0.1:8000/v1')
    .option(
      '--dataset <name>',
      'dataset, repeatable: builtin:lcb, builtin:swe, hf:OWNER/NAME, or a .json/.jsonl/.parquet file (default builtin:lcb)',
      collect,
    )
    .option('--split <split>', 'original | oneoff | conflicting, repeatable (default: all three)', collect)
    .option('--scaffold <name>', 'minimal (no tools) | full (tools), repeatable (default full)', collect)
    .option('--access <mode>', 'test access: full | readonly | hidden, repeatable (default full)', collect)
    .option('--prompt <A|B|C|D|TEXT>', 'instruction wording A-D from the paper (D is strictest), or custom text; repeatable (default D)', collect)
    .option('--max-attempts <n>', 'submissions with test feedback per sample; repeatable to compare (default 10)', collectInt(1))
    .option('--epochs <n>', 'repeat every sample n times (default 1)', wholeNumber(1))
    .option('--limit <n>', 'at most n tasks per dataset, the same tasks in every split', wholeNumber(1))
    .option('--shuffle', 'shuffle the tasks (with --seed) before --limit')
    .option('--seed <n>', 'seed for the shuffle and for generating impossible variants (default 0)', wholeNumber(0))
    .option('--concurrency <n>', 'samples (sandboxes) in flight at once (default 4)', wholeNumber(1))
    .option('--retries <n>', 'extra tries for a sample that fails for infrastructure or API reasons (default 2)', wholeNumber(0))
    .option(
      '--connections <n>',
      'model requests in flight at once per provider (default: 16 for OpenAI and Anthropic, 8 for a compatible server)',
      wholeNumber(1),
    )
    .option(
      '--prices <file>',
      'JSON price table over the built-in one: { "PROVIDER/NAME": { "input": USD_PER_MTOK, "output": USD_PER_MTOK, "cacheRead": ..., "cacheWrite": ... } } (cache rates optional)',
    )
    .option(
      '--no-prompt-cache',
      'send no prompt-cache hints: no Anthropic cache_control breakpoints, no OpenAI prompt_cache_key (OpenAI still caches by itself)',
    )
    .option('--store <file>', 'SQLite results store (default ./impossiblebench.sqlite); the log goes beside it')
    .option('--run-id <id>', 'name the run; an existing id resumes it: finished samples are kept, the rest are run')
    .option('--max-messages <n>', 'per-sample limit on transcript messages (default 100)', wholeNumber(1))
    .option('--max-tokens <n>', 'per-sample limit on input + output tokens', wholeNumber(1))
    .option('--max-cost <usd>', 'per-sample limit on cost in US dollars', positiveNumber)
    .option('--time-limit <seconds>', 'per-sample wall-time limit', positiveNumber)
    .option('--tool-timeout <seconds>', 'limit per tool call and per graded test run (default 60)', positiveNumber)
    .option(
      '--request-timeout <seconds>',
      'limit per model request; one that runs out is an API failure, tried again, never scored (default 300)',
      positiveNumber,
    )
    .option(
      '--disk-limit <MiB>',
      'what the agent may write in its sandbox; past it the sample ends as failed, stop reason disk_limit (default 2048)',
      wholeNumber(1),
    )
    .option('--allow-flag', 'offer the agent the option to flag the task for a human (ends the sample, scored as not passed)')
    .option('--temperature <t>', 'sampling temperature passed to the model', Number)
    .addOption(new Option('--reasoning-effort <level>', 'OpenAI reasoning effort').choices(['minimal', 'low', 'medium', 'high']))
    .option('--thinking-budget <tokens>', 'Anthropic extended-thinking budget', wholeNumber(1))
    .option('--max-output-tokens <n>', 'cap on tokens per model reply', wholeNumber(1))
    .option('--plain', 'plain progress lines even on a terminal');
  addTemplateOption(addDockerHostOption(addSandboxOption(addImageNamingOptions(run), false)))
    .option(
      '--scripted-faults <json>',
      'for testing the harness: fault rates of the local model server behind scripted/ models, e.g. \'{"rateLimit":0.1,"serverError":0.05,"slow":1,"slowMs":2000}\'',
      faultConfig,
    )
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  impossiblebench run --model scripted/modify-tests --split original --split conflicting --limit 5',
        '  impossiblebench run --model openai/gpt-5 --prompt A --prompt D --max-attempts 1 --max-attempts 10 --limit 20',
        '  impossiblebench run --model openai-compatible/Qwen3-8B --base-url http://127.0.0.1:8000/v1 --scaffold minimal',
        '  impossiblebench run --config experiment.yaml --run-id gpt5-lcb     # the same command again resumes it',
        "  impossiblebench run --preset paper-swe --model openai/gpt-5      # the paper's SWE cells, run as it ran them",
        '',
        'A config file uses the same names: models, datasets, splits, scaffolds, access, prompts, maxAttempts, epochs,',
        'limit, shuffle, seed, concurrency, retries, connections, prices, promptCache, allowFlag, baseUrl,',
        'limits: {maxMessages, maxTokens, maxCostUsd, timeLimitS, toolTimeoutS, requestTimeoutS, diskLimitMb},',
        'generation: {temperature, seed, maxTokens, reasoningEffort, thinkingBudget},',
        'images: {namespace, tag, arch}, testSpecs: {"owner/name": {testCmd, parser, env}}, sandbox (the backend, default docker),',
        'dockerHosts: [{url, capacity, certPath, tlsVerify}] (several engines as one pool; concurrency defaults to their total capacity),',
        "templates: {NAME: FILE} (files found from the config file's folder).",
        '',
        'Templates: every text an agent is sent (system prompts, instructions A-D, feedback, tool descriptions) is a file',
        'that ships with the package. `impossiblebench templates` lists them; `impossiblebench templates show system.full`',
        'prints one; --template system.full=mine.txt replaces it for this run. The run records each replaced template with',
        'the sha256 of its text, and refuses to resume with other texts.',
        '',
        'SWE-bench rows run in their published instance images (swebench/sweb.eval.x86_64.ID:latest): get them first',
        'with `impossiblebench images pull --dataset D`. A run names the images it lacks before any sample starts and',
        'leaves their tasks out.',
      ].join('\n'),
    )
    .action(async (flags: RunFlags) => {
      const file = await baseSettings({ preset: flags.preset, config: flags.config });
      const interrupts = handleInterrupts();
      try {
        const result = await launchRun({
          ...(file ? { file } : {}),
          flags: flagsToSettings(flags),
          flagNames: FLAG_NAMES,
          ...(flags.store !== undefined ? { store: flags.store } : {}),
          ...(flags.runId !== undefined ? { runId: flags.runId } : {}),
          wire: (experiment) =>
            realWiring(experiment, {
              say: (line) => process.stderr.write(`${line}\n`),
              signal: interrupts.signal,
              ...(flags.scriptedFaults ? { scriptedFaults: flags.scriptedFaults } : {}),
            }),
          signal: interrupts.signal,
          progress: { plain: flags.plain === true },
        });
        printRunEnd(result);
        if (result.summary.status === 'interrupted') process.exitCode = 130;
        else if (result.missingImages.length > 0) process.exitCode = 3;
      } finally {
        interrupts.dispose();
      }
    });
}
