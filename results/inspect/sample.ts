import { createHash } from 'node:crypto';
import type { StopReason } from '../../core/record.js';
import { sampleEvents, type EventsData, type InspectEvent } from './events.js';
import { messageText, toInspectMessages, type InspectMessage } from './messages.js';
import { sampleScores, type InspectScore, type ScoredSample } from './scores.js';

/** A stored sample as an Inspect sample: its messages, usage, times, error, scores, and our evidence in metadata. */

/** The sample's id in its log: the task and the split, so the splits of one task sit side by side. */
export const inspectSampleId = (key: { taskId: string; split: string }) => `${key.taskId}-${key.split}`;

/** The run's limits a stop reason ran into, as Inspect names its sample limits. */
const LIMIT_TYPES: Partial<Record<StopReason, 'message' | 'token' | 'time' | 'cost' | 'context'>> = {
  message_limit: 'message',
  token_limit: 'token',
  time_limit: 'time',
  cost_limit: 'cost',
  context_limit: 'context',
};

/** The limits of the run, as the sample's limit needs them. */
export interface RunLimits {
  maxMessages?: number;
  maxTokens?: number;
  timeLimitS?: number;
  maxCostUsd?: number;
}

function limitOf(stop: StopReason, limits: RunLimits): { type: string; limit: number } | undefined {
  const type = LIMIT_TYPES[stop];
  if (!type) return undefined;
  // A context window's size is the provider's and not known here: that stop shows in the metadata alone.
  const limit = { message: limits.maxMessages, token: limits.maxTokens, time: limits.timeLimitS, cost: limits.maxCostUsd, context: undefined }[type];
  return limit === undefined ? undefined : { type, limit };
}

/** A stable id made of the run and the sample: an export made twice names each sample alike. */
export function stableId(...parts: (string | number)[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 22);
}

type Usage = {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_cache_read: number;
  input_tokens_cache_write: number;
  total_cost?: number;
};

export function usageOf(s: Pick<ScoredSample['sample'], 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'costUsd'>): Usage {
  return {
    input_tokens: s.inputTokens,
    output_tokens: s.outputTokens,
    total_tokens: s.inputTokens + s.outputTokens,
    input_tokens_cache_read: s.cacheReadTokens,
    input_tokens_cache_write: s.cacheWriteTokens,
    ...(s.costUsd !== null ? { total_cost: s.costUsd } : {}),
  };
}

export interface InspectSample {
  id: string;
  epoch: number;
  input: string;
  target: string;
  messages: InspectMessage[];
  output: Record<string, unknown>;
  scores: Record<string, InspectScore>;
  metadata: Record<string, unknown>;
  store: Record<string, never>;
  events: InspectEvent[];
  events_data: EventsData;
  model_usage: Record<string, Usage>;
  role_usage: Record<string, never>;
  total_time: number;
  working_time: number;
  started_at: string;
  completed_at: string;
  uuid: string;
  error_retries: [];
  attachments: Record<string, never>;
  error?: { message: string; traceback: string; traceback_ansi: string };
  limit?: { type: string; limit: number };
}

/** Our evidence on the sample, in its metadata: what Inspect has no field for, and what the import rebuilds from. */
function sampleMetadata(s: ScoredSample): Record<string, unknown> {
  const { sample } = s;
  const { key } = sample;
  return {
    task_id: key.taskId,
    split: key.split,
    dataset: key.dataset,
    scaffold: key.scaffold,
    access: key.access,
    prompt: key.prompt,
    max_attempts: key.maxAttempts,
    store_sample_id: sample.id,
    outcome: sample.outcome,
    stop_reason: sample.stopReason,
    label: s.label,
    attempts: sample.attempts,
    refusals: sample.refusals,
    source_diff: sample.sourceDiff,
    test_diff: sample.testDiff,
    outside_changes: sample.outsideChanges,
    grading_log: sample.gradingLog,
    tamper: sample.tamper,
    mutation: sample.mutation ?? null,
    // Exact, for the import: Inspect's seconds are a float, and its error keeps only error samples' text.
    wall_ms: sample.wallMs,
    error: sample.error ?? null,
  };
}

export function inspectSample(s: ScoredSample, runId: string, limits: RunLimits): InspectSample {
  const { sample } = s;
  const { key } = sample;
  const id = inspectSampleId(key);
  const messages = toInspectMessages(sample.transcript, key.model, stableId(runId, sample.id));
  const last = messages.findLast((m) => m.role === 'assistant');
  const limit = limitOf(sample.stopReason, limits);
  const seconds = sample.wallMs / 1000;
  const input = sample.transcript.find((m) => m.role === 'user')?.content ?? '';
  const scores = sampleScores(s);
  const error = sample.outcome === 'error' ? errorOf(sample.error ?? 'error') : undefined;
  const { events, events_data } = sampleEvents({
    id,
    input,
    target: '',
    model: key.model,
    messages,
    scores,
    stopReason: sample.stopReason,
    limit: limit?.limit,
    error,
    startedAt: sample.startedAt,
    endedAt: sample.endedAt,
    totalSeconds: seconds,
    uuidPrefix: stableId(runId, sample.keyString),
  });
  return {
    id,
    epoch: key.epoch + 1,
    input,
    // The tests are the target, and they live in the sandbox: no text stands for them.
    target: '',
    messages,
    output: {
      model: key.model,
      choices: last ? [{ message: last, stop_reason: last.role === 'assistant' && last.tool_calls ? 'tool_calls' : 'stop' }] : [],
      completion: last ? messageText(last.content) : '',
      usage: usageOf(sample),
    },
    scores,
    metadata: sampleMetadata(s),
    store: {},
    events,
    events_data,
    model_usage: { [key.model]: usageOf(sample) },
    role_usage: {},
    total_time: seconds,
    // We do not measure the waiting within a sample apart from its work.
    working_time: seconds,
    started_at: sample.startedAt,
    completed_at: sample.endedAt,
    uuid: stableId(runId, sample.keyString),
    error_retries: [],
    attachments: {},
    ...(error ? { error } : {}),
    ...(limit ? { limit } : {}),
  };
}

function errorOf(text: string) {
  return { message: text.split('\n')[0]!, traceback: text, traceback_ansi: text };
}

/** Scores cut to their values, as a summary holds them. */
const thinScores = (scores: Record<string, InspectScore>) =>
  Object.fromEntries(Object.entries(scores).map(([name, score]) => [name, { value: score.value, history: [] as [] }]));

/** The few short fields of a sample's metadata a summary keeps (the diffs and logs stay in the sample). */
const SUMMARY_METADATA = ['task_id', 'split', 'outcome', 'stop_reason', 'label', 'attempts'] as const;

/** The sample's entry in `summaries.json`: what a viewer lists before it opens the sample. */
export function sampleSummary(s: InspectSample) {
  return {
    id: s.id,
    epoch: s.epoch,
    input: s.input,
    target: s.target,
    metadata: Object.fromEntries(SUMMARY_METADATA.map((k) => [k, s.metadata[k]])),
    scores: thinScores(s.scores),
    model_usage: s.model_usage,
    role_usage: s.role_usage,
    total_time: s.total_time,
    working_time: s.working_time,
    started_at: s.started_at,
    completed_at: s.completed_at,
    uuid: s.uuid,
    retries: 0,
    completed: true,
    message_count: s.messages.length,
    ...(s.error ? { error: s.error.message } : {}),
    ...(s.limit ? { limit: s.limit.type } : {}),
  };
}
