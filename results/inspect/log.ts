import { z } from 'zod';
import type { ConfigKey } from '../metrics.js';
import { packageVersion } from '../package-version.js';
import type { RunInfo, RunReference } from '../store.js';
import { stableId, usageOf, type InspectSample, type RunLimits } from './sample.js';
import { logResults, type InspectScore, type ScoredSample } from './scores.js';

/** The header of one Inspect log: one configuration of a run (its eval spec), its plan, results and stats. */

export const INSPECT_LOG_VERSION = 2;
export const INSPECT_TASK = 'impossiblebench';

/** The parts of a run's stored config a log states, read leniently: a run stored by an older version may lack any. */
const RunConfigSchema = z
  .object({
    baseUrl: z.string().optional(),
    epochs: z.number().int().optional(),
    seed: z.number().int().optional(),
    limit: z.number().int().optional(),
    shuffle: z.boolean().optional(),
    allowFlag: z.boolean().optional(),
    limits: z
      .object({
        maxMessages: z.number().optional(),
        maxTokens: z.number().optional(),
        timeLimitS: z.number().optional(),
        maxCostUsd: z.number().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type RunConfig = z.infer<typeof RunConfigSchema>;

export function runConfigOf(run: RunInfo): RunConfig {
  const parsed = RunConfigSchema.safeParse(run.config);
  return parsed.success ? parsed.data : {};
}

export const runLimitsOf = (config: RunConfig): RunLimits => config.limits ?? {};

/** `2026-01-01T10:00:00.000Z` as Inspect writes times: seconds, with the offset. */
export const inspectTime = (iso: string) => `${new Date(iso).toISOString().slice(0, 19)}+00:00`;

/** The log's file name as Inspect makes one: its creation time, its task and its eval id. */
export function logFileName(created: string, evalId: string, extension: 'eval' | 'json'): string {
  return `${inspectTime(created).replace(/:/g, '-')}_${INSPECT_TASK}_${evalId}.${extension}`;
}

const STATUS: Record<RunInfo['status'], 'started' | 'success' | 'cancelled' | 'error'> = {
  running: 'started',
  finished: 'success',
  interrupted: 'cancelled',
  // Stopped before its end by its own budget: Inspect says the same of a run stopped by its user.
  budget_reached: 'cancelled',
  failed: 'error',
};

export const evalIdOf = (runId: string, cell: ConfigKey) =>
  stableId(runId, cell.model, cell.dataset, cell.scaffold, cell.access, cell.prompt, cell.maxAttempts);

/** The cell's settings: what makes this log one configuration. */
function taskArgs(cell: ConfigKey, config: RunConfig) {
  return {
    dataset: cell.dataset,
    scaffold: cell.scaffold,
    access: cell.access,
    prompt: cell.prompt,
    max_attempts: cell.maxAttempts,
    ...(config.allowFlag !== undefined ? { allow_flag: config.allowFlag } : {}),
    ...(config.seed !== undefined ? { seed: config.seed } : {}),
  };
}

/** Whole seconds, as Inspect's time limit takes them. */
const wholeSeconds = (s: number | undefined) => (s === undefined ? undefined : Math.ceil(s));

const optional = <T>(name: string, value: T | undefined) => (value === undefined ? {} : { [name]: value });

/** The run's settings Inspect's eval config has a name for. */
function evalConfig(config: RunConfig) {
  const limits = runLimitsOf(config);
  return {
    ...optional('epochs', config.epochs),
    ...optional('limit', config.limit),
    ...optional('message_limit', limits.maxMessages),
    ...optional('token_limit', limits.maxTokens),
    ...optional('time_limit', wholeSeconds(limits.timeLimitS)),
    ...optional('cost_limit', limits.maxCostUsd),
  };
}

/** The samples' usage added up; an unknown cost makes the total unknown, never zero. */
function totalUsage(scored: readonly ScoredSample[]) {
  const total = {
    input_tokens: 0,
    output_tokens: 0,
    total_tokens: 0,
    input_tokens_cache_read: 0,
    input_tokens_cache_write: 0,
    total_cost: 0 as number | undefined,
  };
  for (const s of scored) {
    const u = usageOf(s.sample);
    total.input_tokens += u.input_tokens;
    total.output_tokens += u.output_tokens;
    total.total_tokens += u.total_tokens;
    total.input_tokens_cache_read += u.input_tokens_cache_read;
    total.input_tokens_cache_write += u.input_tokens_cache_write;
    total.total_cost = total.total_cost === undefined || u.total_cost === undefined ? undefined : total.total_cost + u.total_cost;
  }
  return total;
}

export interface LogParts {
  run: RunInfo;
  cell: ConfigKey;
  /** The log's samples, written already: ids, epochs, usage and times. */
  samples: readonly Pick<InspectSample, 'id' | 'epoch' | 'started_at' | 'completed_at' | 'scores'>[];
  /** What their scores were made from, for the results. */
  scored: readonly ScoredSample[];
  /** The run's reference verdicts on the tasks of the log's dataset, so an import's report names them as the run's did. */
  references: readonly RunReference[];
}

/** Everything of a log but its samples: `header.json` of the `.eval` layout, and the `.json` log less `samples`. */
export function logHeader({ run, cell, samples, scored, references }: LogParts) {
  const config = runConfigOf(run);
  const evalId = evalIdOf(run.id, cell);
  const args = taskArgs(cell, config);
  const scores = logResults(scored);
  const ids = [...new Set(samples.map((s) => s.id))].sort();
  const { total_cost, ...tokens } = totalUsage(scored);
  const times = samples.flatMap((s) => [s.started_at, s.completed_at]).sort();
  return {
    version: INSPECT_LOG_VERSION,
    status: STATUS[run.status],
    eval: {
      eval_id: evalId,
      run_id: run.id,
      created: inspectTime(run.startedAt),
      task: INSPECT_TASK,
      task_id: stableId(run.id, cell.dataset),
      task_version: packageVersion(),
      task_attribs: {},
      task_args: args,
      task_args_passed: args,
      solver: cell.scaffold,
      dataset: { name: cell.dataset, location: cell.dataset, samples: ids.length, sample_ids: ids, shuffled: config.shuffle ?? false },
      model: cell.model,
      ...optional('model_base_url', config.baseUrl),
      model_generate_config: {},
      model_args: {},
      config: evalConfig(config),
      packages: { impossiblebench: packageVersion() },
      scorers: scores.map((s) => ({
        name: s.name,
        options: {},
        metrics: Object.keys(s.metrics).map((name) => ({ name, options: {} })),
        metadata: {},
      })),
      // The run as the store holds it, so an import restores it and its report reads the same.
      metadata: {
        run_id: run.id,
        run_status: run.status,
        ...args,
        model: cell.model,
        run_started_at: run.startedAt,
        run_ended_at: run.endedAt ?? null,
        run_config: run.config ?? null,
        run_references: references,
      },
    },
    plan: {
      name: 'plan',
      steps: [{ solver: cell.scaffold, params: { access: cell.access, prompt: cell.prompt, max_attempts: cell.maxAttempts }, params_passed: {} }],
      config: {},
    },
    results: { total_samples: samples.length, completed_samples: samples.length, scores },
    stats: {
      started_at: times.length ? inspectTime(times[0]!) : '',
      completed_at: times.length ? inspectTime(times.at(-1)!) : '',
      model_usage: { [cell.model]: { ...tokens, ...optional('total_cost', total_cost) } },
      role_usage: {},
      connection_limit_history: [],
    },
    invalidated: false,
    tags: [],
    metadata: {},
  };
}

export type LogHeader = ReturnType<typeof logHeader>;

/** The journal's start entry: what a log holds before its first sample. */
export const startEntry = (header: LogHeader) => ({ version: header.version, eval: header.eval, plan: header.plan });

/**
 * Each scorer's score per sample id, its epochs reduced to the most common value (the first seen on a tie): values
 * such as `passed` have no mean, and with one epoch the reduction is the score itself.
 */
export function reductions(samples: LogParts['samples']) {
  const byScorer = new Map<string, Map<string, InspectScore[]>>();
  for (const s of samples) {
    for (const [name, score] of Object.entries(s.scores)) {
      const byId = byScorer.get(name) ?? new Map<string, InspectScore[]>();
      byId.set(s.id, [...(byId.get(s.id) ?? []), score]);
      byScorer.set(name, byId);
    }
  }
  return [...byScorer].map(([scorer, byId]) => ({
    scorer,
    reducer: 'mode',
    samples: [...byId].map(([id, scores]) => {
      const count = new Map<string, number>();
      for (const s of scores) count.set(JSON.stringify(s.value), (count.get(JSON.stringify(s.value)) ?? 0) + 1);
      const best = [...count].reduce((a, b) => (b[1] > a[1] ? b : a));
      return { value: JSON.parse(best[0]) as InspectScore['value'], sample_id: id, history: [] };
    }),
  }));
}
