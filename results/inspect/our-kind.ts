import { z } from 'zod';
import {
  AccessModeSchema,
  OutcomeSchema,
  SampleMutationSchema,
  ScaffoldNameSchema,
  StopReasonSchema,
  VariantSchema,
  type SampleRecord,
} from '../../core/record.js';
import { INSPECT_TASK } from './log.js';
import type { LogKind } from './log-kind.js';
import { checkField, type ReadHeader, type ReadSample } from './read.js';
import { fromInspectMessages } from './transcript-of.js';

/**
 * Logs our own `export --format inspect` wrote: the sample's metadata holds our whole record, so it is rebuilt
 * exactly, and the log lacks nothing.
 */

/** What our export puts in a sample's metadata (results/inspect/sample.ts). */
const OurMetadataSchema = z.object({
  task_id: z.string(),
  split: VariantSchema,
  dataset: z.string(),
  scaffold: ScaffoldNameSchema,
  access: AccessModeSchema,
  prompt: z.string(),
  max_attempts: z.number().int().positive(),
  outcome: OutcomeSchema,
  stop_reason: StopReasonSchema,
  attempts: z.number().int().nonnegative(),
  refusals: z.number().int().nonnegative(),
  source_diff: z.string(),
  test_diff: z.string(),
  outside_changes: z.string(),
  grading_log: z.string(),
  tamper: z.array(z.string()),
  mutation: SampleMutationSchema.nullable(),
  wall_ms: z.number().nonnegative(),
  error: z.string().nullable(),
});

const UsageSchema = z.looseObject({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  input_tokens_cache_read: z.number().int().nullish(),
  input_tokens_cache_write: z.number().int().nullish(),
  total_cost: z.number().nullish(),
});

const TimesSchema = z.looseObject({ started_at: z.string(), completed_at: z.string() });

const field = <T>(schema: z.ZodType<T>, value: unknown, sample: ReadSample, prefix: string): T =>
  checkField(schema, value, prefix, `sample ${sample.id}, epoch ${sample.epoch}`);

export function ourRecord(header: ReadHeader, sample: ReadSample): SampleRecord {
  const meta = field(OurMetadataSchema, sample.metadata, sample, 'metadata');
  const model = header.eval.model;
  const usage = field(UsageSchema, sample.model_usage[model] ?? { input_tokens: 0, output_tokens: 0 }, sample, `model_usage.${model}`);
  const times = field(TimesSchema, sample, sample, '');
  return {
    key: {
      model,
      dataset: meta.dataset,
      split: meta.split,
      taskId: meta.task_id,
      scaffold: meta.scaffold,
      access: meta.access,
      prompt: meta.prompt,
      maxAttempts: meta.max_attempts,
      epoch: sample.epoch - 1,
    },
    outcome: meta.outcome,
    stopReason: meta.stop_reason,
    attempts: meta.attempts,
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheReadTokens: usage.input_tokens_cache_read ?? 0,
    cacheWriteTokens: usage.input_tokens_cache_write ?? 0,
    refusals: meta.refusals,
    // No cost in the log is an unknown price, never a free sample.
    costUsd: usage.total_cost ?? null,
    startedAt: times.started_at,
    endedAt: times.completed_at,
    wallMs: meta.wall_ms,
    transcript: fromInspectMessages(sample.messages),
    sourceDiff: meta.source_diff,
    testDiff: meta.test_diff,
    outsideChanges: meta.outside_changes,
    gradingLog: meta.grading_log,
    tamper: meta.tamper,
    ...(meta.error !== null ? { error: meta.error } : {}),
    ...(meta.mutation ? { mutation: meta.mutation } : {}),
  };
}

export const ourLogKind: LogKind = {
  name: 'impossiblebench',
  graded: true,
  description: 'logs impossiblebench exported: each sample rebuilt exactly from its metadata',
  matches: (header) => header.eval.task === INSPECT_TASK && typeof header.eval.metadata?.run_config !== 'undefined',
  sample: (header, sample) => ({ record: ourRecord(header, sample), scores: sample.scores ?? {}, lacks: [] }),
};
