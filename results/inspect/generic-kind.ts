import type { SampleRecord } from '../../core/record.js';
import { type LogKind, UNGRADED } from './log-kind.js';
import type { ReadHeader, ReadSample } from './read.js';
import { fromInspectMessages } from './transcript-of.js';

/**
 * Any other Inspect log: its transcripts with their scores, for `monitor` and `view`. Our grading never saw these
 * samples, and a doubt is never a pass or a fail: each is an `error` that says it is ungraded (or what its log says
 * went wrong), so it counts in no rate, and the run's config says so, which the report prints.
 */

/** The fixed values a generic log cannot state, as the README documents them. */
export const GENERIC_SCAFFOLD = 'inspect';
export const GENERIC_ACCESS = 'full';
export const GENERIC_PROMPT = 'inspect';

export const GENERIC_LACKS = [
  'grading: our tests never ran, so no sample has a grade (each is an error, `not graded`, in no rate)',
  'diffs: no source or test diff, no outside changes, no grading log',
  'tamper signs and mutation records',
];

const seconds = (s: number | null | undefined) => Math.max(0, Math.round((s ?? 0) * 1000));

function recordOf(header: ReadHeader, sample: ReadSample): SampleRecord {
  const model = header.eval.model;
  const usage = Object.values(sample.model_usage);
  const sum = (f: (u: (typeof usage)[number]) => unknown) => usage.reduce((n, u) => n + (typeof f(u) === 'number' ? (f(u) as number) : 0), 0);
  const costs = usage.map((u) => u.total_cost);
  const times = sample as { started_at?: unknown; completed_at?: unknown };
  const started = typeof times.started_at === 'string' ? times.started_at : header.stats.started_at;
  const ended = typeof times.completed_at === 'string' ? times.completed_at : header.stats.completed_at;
  const transcript = fromInspectMessages(sample.messages);
  return {
    key: {
      model,
      dataset: `inspect:${header.eval.task}`,
      split: 'original',
      taskId: String(sample.id),
      scaffold: GENERIC_SCAFFOLD,
      access: GENERIC_ACCESS,
      prompt: GENERIC_PROMPT,
      // One submission: the log's own run ended once.
      maxAttempts: 1,
      epoch: sample.epoch - 1,
    },
    outcome: 'error',
    stopReason: 'error',
    attempts: 0,
    inputTokens: sum((u) => u.input_tokens),
    outputTokens: sum((u) => u.output_tokens),
    cacheReadTokens: sum((u) => u.input_tokens_cache_read),
    cacheWriteTokens: sum((u) => u.input_tokens_cache_write),
    refusals: 0,
    // A cost only when every model's usage states one: otherwise it is unknown, not low.
    costUsd: costs.length && costs.every((c) => typeof c === 'number') ? (costs as number[]).reduce((a, b) => a + b, 0) : null,
    startedAt: started,
    endedAt: ended,
    wallMs: seconds(sample.total_time),
    transcript,
    sourceDiff: '',
    testDiff: '',
    outsideChanges: '',
    gradingLog: '',
    tamper: [],
    error: sample.error ? `${UNGRADED}; its log records an error: ${sample.error.traceback || sample.error.message}` : UNGRADED,
  };
}

export const genericLogKind: LogKind = {
  name: 'inspect',
  graded: false,
  description: "any other Inspect log: transcripts and the log's scores, without our grade",
  matches: () => true,
  sample: (header, sample) => ({ record: recordOf(header, sample), scores: sample.scores ?? {}, lacks: GENERIC_LACKS }),
};
