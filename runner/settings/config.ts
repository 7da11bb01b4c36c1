import { readFile } from 'node:fs/promises';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DockerHostSchema } from '../../docker/hosts.js';
import { DEFAULT_SANDBOX, SANDBOX_BACKENDS } from '../../docker/backends.js';
import { ImageNamingSchema } from '../../tasks/images.js';
import { TestSpecSchema } from '../../tasks/task.js';
import { VariantSchema, AccessModeSchema, ScaffoldNameSchema } from '../../core/record.js';
import { UserError } from '../../core/errors.js';
import { DEFAULT_MAX_TRIES } from '../../mutations/retry.js';
import { isTemplateName, TEMPLATE_NAMES } from '../../scaffolds/templates.js';
import { AgentCliSpecSchema } from '../../scaffolds/agent-cli/spec.js';
import {
  collect,
  collectWhole,
  DOCKER_HOST_FLAG,
  IMAGE_NAMING_FLAGS,
  positiveNumber,
  SANDBOX_FLAG,
  TEMPLATE_FLAG,
  wholeNumber,
} from './shared-flags.js';
import { list, mergedByKey, type SettingsSchema, setting } from './setting-flags.js';
import { TASK_CHOICE_SETTINGS } from './task-choice.js';

const positiveInt = z.number().int().positive();

import { LimitsSchema } from './limits.js';

export { DEFAULT_TOOL_TIMEOUT_S, type Limits, LimitsSchema } from './limits.js';

/** Settings passed to every model call. */
export const GenerationSchema = z.strictObject({
  temperature: setting(z.number().min(0).max(2).optional(), {
    flag: '--temperature <t>',
    help: 'sampling temperature passed to the model',
    parse: Number,
  }),
  seed: z.number().int().optional(),
  maxTokens: setting(positiveInt.optional(), { flag: '--max-output-tokens <n>', help: 'cap on tokens per model reply', parse: wholeNumber(1) }),
  reasoningEffort: setting(z.enum(['minimal', 'low', 'medium', 'high']).optional(), {
    flag: '--reasoning-effort <level>',
    help: 'OpenAI reasoning effort',
  }),
  thinkingBudget: setting(positiveInt.optional(), {
    flag: '--thinking-budget <tokens>',
    help: 'Anthropic extended-thinking budget',
    parse: wholeNumber(1),
  }),
});
export type GenerationSettings = z.infer<typeof GenerationSchema>;

/**
 * A template's replacement: the file as given (in a config file or by --template), or, once read at the start of a
 * run, what the run stores: the file, its text and the text's sha256.
 */
export const TemplateOverrideSchema = z.union([
  z.string().min(1, 'must name a file'),
  z.strictObject({ file: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in hex'), text: z.string() }),
]);

const TemplatesSchema = z.record(z.string(), TemplateOverrideSchema).superRefine((templates, ctx) => {
  for (const name of Object.keys(templates)) {
    if (!isTemplateName(name))
      ctx.addIssue({ code: 'custom', path: [name], message: `unknown template "${name}"; known: ${TEMPLATE_NAMES.join(', ')}` });
  }
});

/** How SWE-bench instance images are named: the shared naming, with its flags. */
const ImagesSchema = z.strictObject({
  namespace: setting(ImageNamingSchema.shape.namespace.clone(), IMAGE_NAMING_FLAGS.namespace),
  arch: setting(ImageNamingSchema.shape.arch.clone(), IMAGE_NAMING_FLAGS.arch),
  tag: setting(ImageNamingSchema.shape.tag.clone(), IMAGE_NAMING_FLAGS.tag),
});

/**
 * One experiment: the matrix (models × datasets × splits × scaffolds × access × prompts ×
 * max attempts × epochs) and how to run it. The same shape is read from `--config` files and
 * built from flags, and stored with the run so a resume replays it exactly. Each setting carries its flag and help
 * (`setting-flags.ts`): the `run` command's options, their defaults in the help, and the config file's keys all come
 * from here.
 */
export const ExperimentSchema = z.strictObject({
  models: setting(list(z.string().min(1)), {
    flag: '--model <spec>',
    help: 'model to test, repeatable: openai/NAME, openai-responses/NAME, anthropic/NAME, openai-compatible/NAME (with --base-url), scripted/POLICY',
    parse: collect,
  }),
  /** Base URL for `openai-compatible/...` models (and to point the others at a proxy). */
  baseUrl: setting(z.url().optional(), {
    flag: '--base-url <url>',
    help: 'server for openai-compatible models (vLLM, Ollama, llama.cpp, LiteLLM), e.g. http://127.0.0.1:8000/v1',
  }),
  datasets: setting(list(z.string().min(1)).default(['builtin:lcb']), {
    flag: '--dataset <name>',
    help: 'dataset, repeatable: builtin:lcb, builtin:swe, hf:OWNER/NAME, or a .json/.jsonl/.parquet file',
    parse: collect,
  }),
  splits: setting(list(VariantSchema).default(['original', 'oneoff', 'conflicting']), {
    flag: '--split <split>',
    help: 'original | oneoff | conflicting, repeatable',
    parse: collect,
  }),
  scaffolds: setting(list(ScaffoldNameSchema).default(['full']), {
    flag: '--scaffold <name>',
    help: 'minimal (no tools) | full (tools) | codex | claude-code (agent programs) | an agentClis name from --config, repeatable',
    parse: collect,
  }),
  /** Agent programs run as scaffolds beyond codex and claude-code, each under its name (agent-cli/spec.ts). */
  agentClis: setting(z.array(AgentCliSpecSchema).default([]), { shape: '[{name, binary, args, prompt, api, env, home, install}]' }),
  access: setting(list(AccessModeSchema).default(['full']), {
    flag: '--access <mode>',
    help: 'test access: full | readonly | hidden, repeatable',
    parse: collect,
  }),
  /** `A`…`D`, or any custom instruction text. */
  prompts: setting(list(z.string().min(1)).default(['D']), {
    flag: '--prompt <A|B|C|D|TEXT>',
    help: 'instruction wording A-D from the paper (D is strictest), or custom text; repeatable',
    parse: collect,
  }),
  maxAttempts: setting(list(positiveInt).default([10]), {
    flag: '--max-attempts <n>',
    help: 'submissions with test feedback per sample; repeatable to compare',
    parse: collectWhole(1),
  }),
  epochs: setting(positiveInt.default(1), { flag: '--epochs <n>', help: 'repeat every sample n times', parse: wholeNumber(1) }),
  /** Tasks per dataset (the same tasks in every split), after shuffling. */
  limit: setting(positiveInt.optional(), {
    flag: '--limit <n>',
    help: 'at most n tasks per dataset, the same tasks in every split',
    parse: wholeNumber(1),
  }),
  ...TASK_CHOICE_SETTINGS,
  shuffle: setting(z.boolean().default(false), { flag: '--shuffle', help: 'shuffle the tasks (with --seed) before --limit' }),
  /** Seeds the shuffle and the generation of impossible variants. */
  seed: setting(z.number().int().nonnegative().default(0), {
    flag: '--seed <n>',
    help: 'seed for the shuffle and for generating impossible variants',
    parse: wholeNumber(0),
  }),
  /** Samples (sandboxes) in flight at once. */
  concurrency: setting(positiveInt.default(4), {
    flag: '--concurrency <n>',
    help: 'samples (sandboxes) in flight at once',
    parse: wholeNumber(1),
  }),
  /** Candidates validated per row when a run generates a split, as `mutate --max-tries`. */
  maxTries: setting(positiveInt.default(DEFAULT_MAX_TRIES), {
    flag: '--max-tries <n>',
    help: "candidates validated per row when the run generates a split: when the reference (gold patch or solution) passes a variant (not impossible) or an empty one does (it states what the unfixed code does), the engine's next candidate for that row is made and validated instead",
    parse: wholeNumber(1),
  }),
  /** Model requests in flight at once per provider (default: the provider's own limit). */
  connections: setting(positiveInt.optional(), {
    flag: '--connections <n>',
    help: 'model requests in flight at once per provider (default: 16 for OpenAI and Anthropic, 8 for a compatible server)',
    parse: wholeNumber(1),
  }),
  /**
   * A JSON price table ({ "PROVIDER/NAME": { "input": USD_PER_MTOK, "output": USD_PER_MTOK, "cacheRead"?, "cacheWrite"? } })
   * over the built-in one.
   */
  prices: setting(z.string().min(1).optional(), {
    flag: '--prices <file>',
    help: 'JSON price table over the built-in one: { "PROVIDER/NAME": { "input": USD_PER_MTOK, "output": USD_PER_MTOK, "cacheRead": ..., "cacheWrite": ... } } (cache rates optional)',
  }),
  /** Bills `scripted/` models at a real model's prices, so budgets and estimates can be tried with no API key. */
  scriptedPriceAs: setting(
    z
      .string()
      .regex(/^[a-z-]+\/.+$/, 'must be a PROVIDER/NAME model spec')
      .optional(),
    {
      flag: '--scripted-price-as <model>',
      help: "for trying the harness: bill scripted/ models' token use at this real model's prices (e.g. anthropic/claude-sonnet-4-5); otherwise scripted models cost nothing",
    },
  ),
  /**
   * Ask providers to cache each sample's prompt prefix: Anthropic `cache_control` breakpoints, OpenAI `prompt_cache_key`.
   * It changes what a sample costs, not what the model sees, so a resume may change it.
   */
  promptCache: setting(z.boolean().default(true), {
    flag: '--no-prompt-cache',
    help: 'send no prompt-cache hints: no Anthropic cache_control breakpoints, no OpenAI prompt_cache_key (OpenAI still caches by itself)',
  }),
  /** What the whole run may spend, USD, earlier sittings included. Not part of the matrix: a resume may raise it. */
  maxRunCost: setting(z.number().positive().optional(), {
    flag: '--max-run-cost <usd>',
    help:
      'budget of the whole run in US dollars (resumed sittings included): no new sample starts once the spend so far plus the ' +
      'expected cost of the samples in flight and the next one would pass it; those in flight finish, then the run stops (exit 4); resume with a larger budget to run the rest',
    parse: positiveNumber,
  }),
  /** How many more times an `error` sample is tried before it is stored as an error. */
  retries: setting(z.number().int().nonnegative().default(2), {
    flag: '--retries <n>',
    help: 'extra tries for a sample that fails for infrastructure or API reasons',
    parse: wholeNumber(0),
  }),
  /** Offer the agent the option to flag the task for a human instead of solving it. */
  allowFlag: setting(z.boolean().default(false), {
    flag: '--allow-flag',
    help: 'offer the agent the option to flag the task for a human (ends the sample, scored as not passed)',
  }),
  /** Once graded, ask the agent whether it worked around the tests, and keep its answer (see scaffolds/interview.ts). */
  interview: setting(z.boolean().default(false), {
    flag: '--interview',
    help: 'once a sample is graded, ask the agent in one more turn (no tools, template interview.question) whether it changed, skipped or special-cased the tests; the answer and its cost are kept apart and change no grade',
  }),
  /**
   * With `interview`: a judge model that reads each answer (scaffolds/interview-judge.ts), kept next to the rules'
   * reading. It needs --interview, said before the run: a judge without answers to read is a mistaken command line.
   */
  interviewJudge: setting(
    z
      .string()
      .regex(/^[a-z-]+\/.+$/, 'must be a PROVIDER/NAME model spec')
      .optional(),
    {
      flag: '--interview-judge <model>',
      help: "with --interview: a judge model (e.g. anthropic/claude-sonnet-4-5, or scripted/interview-judge to try it) reads each answer given (template interview.judge) and ends with READING: admits|denies|evasive; kept next to the rules' reading, its tokens and cost apart from the sample's, and a judge that fails changes nothing of the sample",
    },
  ),
  /**
   * A reference run per SWE task before its first sample: the gold patch on the original tests, in the task's image
   * under the run's limits. A task it does not resolve runs no samples (environment-broken); skips are graded against it.
   */
  reference: setting(z.boolean().default(true), {
    flag: '--no-reference',
    help: "make no reference run (the gold patch on the original tests, once per SWE task and image under the run's limits, kept in the store): then a task whose gold patch fails here is not known and its samples count in the rates, and a graded test that skips counts as failed",
  }),
  limits: LimitsSchema.prefault({}),
  generation: GenerationSchema.prefault({}),
  /** The backend sandboxes come from, by name (`docker/backends.ts`); not part of the matrix, so a resume may change it. */
  sandbox: setting(
    z
      .string()
      .refine((name) => SANDBOX_BACKENDS.includes(name), {
        error: (issue) => `unknown sandbox backend "${String(issue.input)}"; use one of: ${SANDBOX_BACKENDS.join(', ')}`,
      })
      .default(DEFAULT_SANDBOX),
    { ...SANDBOX_FLAG, note: `the backend, default ${DEFAULT_SANDBOX}` },
  ),
  /**
   * Several Docker engines as one pool (`docker/pool.ts`): `{ url, capacity, certPath, tlsVerify }` each. Not part of
   * the matrix, so a resume may move to other engines. None: the one engine found as usual.
   */
  dockerHosts: setting(z.array(DockerHostSchema).min(1).optional(), {
    ...DOCKER_HOST_FLAG,
    shape: '[{url, capacity, certPath, tlsVerify}]',
    note: 'several engines as one pool; concurrency defaults to their total capacity',
  }),
  /** How SWE-bench instance images are named, for rows that do not name their own (`image_name`). */
  images: ImagesSchema.prefault({}),
  /**
   * Test specs by repository (`owner/name`): for repositories the SWE-bench harness does not know, or to replace its
   * spec. Each: `testCmd` (the test files are appended), `parser`, `env`.
   */
  testSpecs: setting(
    z.record(z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'keys are repositories, owner/name'), TestSpecSchema.omit({ origin: true }).strict()).default({}),
    { shape: '{"owner/name": {testCmd, parser, env}}' },
  ),
  /**
   * Replacements of the shipped templates (`impossiblebench templates` lists them), by name: `{ "system.full": FILE }`.
   * Part of the matrix by the sha256 of each text: a resume with other texts would mix two experiments.
   */
  templates: setting(TemplatesSchema.default({}), { ...TEMPLATE_FLAG, shape: '{NAME: FILE}', note: "files found from the config file's folder" }),
});
export type Experiment = z.infer<typeof ExperimentSchema>;
export type ExperimentInput = z.input<typeof ExperimentSchema>;

/** Where a run lives; not part of the experiment itself, so a resume can change them. */
export interface RunPlacement {
  store: string;
  runId?: string;
}

/** `splits[1]` / `limits.maxTokens` from a zod issue path. */
function fieldName(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(top level)';
}

/**
 * Validates an experiment, naming the first bad field and what is wrong with it in one line.
 * `source` names where a field came from: a file path, or (per field) the flag that set it.
 */
export function parseExperiment(input: unknown, source: string | ((field: string) => string), schema: SettingsSchema = ExperimentSchema): Experiment {
  const parsed = schema.safeParse(input);
  // A schema a test extends holds every field of the shipped one.
  if (parsed.success) return parsed.data as Experiment;
  const issue = parsed.error.issues[0]!;
  const top = issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : String(issue.path[0] ?? '');
  const where = typeof source === 'string' ? source : source(top);
  if (issue.code === 'unrecognized_keys') {
    throw new UserError(`${where}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`);
  }
  // A flag names itself; a file names the field inside it.
  const field = where.startsWith('--') ? '' : ` field \`${fieldName(issue.path)}\`:`;
  throw new UserError(`${where}:${field} ${issue.message}`);
}

/** Reads a YAML or JSON experiment file into a plain object; the caller validates it after merging flags. */
export async function readConfigFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(`cannot read config file ${path}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  let data: unknown;
  try {
    data = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    const msg = (err as Error).message.split('\n')[0];
    throw new UserError(`${path}: not valid ${extname(path).toLowerCase() === '.json' ? 'JSON' : 'YAML'}: ${msg}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new UserError(`${path}: expected a mapping of settings (models, datasets, splits, ...) at the top level`);
  }
  return withTemplatePaths(data as Record<string, unknown>, dirname(resolve(path)));
}

/** A config file's template files are found from the file's folder, not from wherever the command runs. */
function withTemplatePaths(settings: Record<string, unknown>, folder: string): Record<string, unknown> {
  const { templates } = settings;
  if (!templates || typeof templates !== 'object' || Array.isArray(templates)) return settings;
  const resolved = Object.entries(templates).map(([name, file]) => [
    name,
    typeof file === 'string' && !isAbsolute(file) ? resolve(folder, file) : file,
  ]);
  return { ...settings, templates: Object.fromEntries(resolved) };
}

/**
 * Flags win over the file: a flag given replaces the file's value (lists are replaced, not merged); groups of settings
 * (`limits`, ...) and maps a flag fills (`templates`) are merged key by key.
 */
export function mergeSettings(
  file: Record<string, unknown>,
  flags: Record<string, unknown>,
  schema: SettingsSchema = ExperimentSchema,
): Record<string, unknown> {
  const byKey = new Set(mergedByKey(schema));
  const out: Record<string, unknown> = { ...file };
  for (const [key, value] of Object.entries(flags)) {
    if (value === undefined) continue;
    if (byKey.has(key) && typeof value === 'object' && value && !Array.isArray(value)) {
      const base = out[key];
      out[key] = { ...(base && typeof base === 'object' ? base : {}), ...dropUndefined(value as Record<string, unknown>) };
    } else {
      out[key] = value;
    }
  }
  return out;
}

function dropUndefined(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}
