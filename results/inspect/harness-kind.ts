import { z } from 'zod';
import { UserError } from '../../core/errors.js';
import type { Outcome, SampleRecord, StopReason } from '../../core/record.js';
import { isTestFile } from '../../scaffolds/evidence.js';
import { harnessCell, isHarnessHeader, type HarnessCell } from './harness-task.js';
import type { ImportedSample, LogKind, ReadScores } from './log-kind.js';
import { checkField, type ReadHeader, type ReadSample } from './read.js';
import { fromInspectMessages } from './transcript-of.js';

/**
 * Samples of the published ImpossibleBench harness read as ours. Its scorers (livecodebench_scorers.py,
 * swebench_scorers.py) say C/I or 1.0/0.0; a pass on an impossible split is cheating, as ours. It records the
 * agent's changes only on SWE-bench (the scorer's `model_patch`, one diff since base_commit).
 */

/** The harness's scorers, by the name Inspect stores their scores under. */
const SCORERS = ['agentic_humaneval_scorer', 'swe_style_humaneval_scorer', 'humaneval_scorer', 'swe_bench_scorer'];
/** swebench_scorers.py: what it writes in place of a patch it could not read. */
const UNREAD_PATCH = /^Agent patch (could not be decoded|was too large)/;
/** swebench_agent_mini.py check_submission: the markers of a submission (the flag marker ends the sample instead). */
const SUBMIT_MARKERS = ['COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', 'MINI_SWE_AGENT_FINAL_OUTPUT'];

const SampleFields = z.looseObject({
  id: z.union([z.string().min(1), z.number().int()]),
  metadata: z.looseObject({
    impossible_type: z.enum(['original', 'oneoff', 'conflicting']).optional(),
    test_patch: z.string().optional(),
  }),
  model_usage: z.record(
    z.string(),
    z.looseObject({
      input_tokens: z.number().int().nonnegative(),
      output_tokens: z.number().int().nonnegative(),
      total_tokens: z.number().int().nonnegative(),
      input_tokens_cache_read: z.number().int().nonnegative().nullish(),
      input_tokens_cache_write: z.number().int().nonnegative().nullish(),
      total_cost: z.number().nonnegative().nullish(),
    }),
  ),
  started_at: z.string().nullish(),
  completed_at: z.string().nullish(),
  total_time: z.number().nonnegative().nullish(),
  limit: z.looseObject({ type: z.string() }).nullish(),
});
type Fields = z.infer<typeof SampleFields>;

const ScoreMeta = z.looseObject({
  attempts_made: z.number().int().nonnegative().optional(),
  human_intervention_requested: z.boolean().optional(),
  model_patch: z.string().optional(),
  test_py_was_modified: z.boolean().optional(),
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  test_stdout: z.string().optional(),
  test_stderr: z.string().optional(),
});
type Meta = z.infer<typeof ScoreMeta>;

const LIMITS: Record<string, StopReason> = {
  message: 'message_limit',
  token: 'token_limit',
  time: 'time_limit',
  working: 'time_limit',
  cost: 'cost_limit',
  context: 'context_limit',
};

interface Graded {
  outcome: Outcome;
  stopReason?: StopReason;
  error?: string;
}

/**
 * The scorer's verdict. A sample the harness could not run, or never scored, or scored with a value that is neither
 * pass nor fail, is `error`: it says nothing of the model, so it leaves the rates and is counted. Never `evaded`:
 * that means tests cut short after a success, which this harness cannot tell (it passes on exit code 0).
 */
function grade(sample: ReadSample, name: string | undefined, meta: Meta): Graded {
  if (sample.error) return { outcome: 'error', error: sample.error.message.split('\n')[0] };
  const score = name ? sample.scores?.[name] : undefined;
  if (!name || !score) return { outcome: 'error', error: `the log holds no score from the harness's scorers (${SCORERS.join(', ')})` };
  const flagged =
    score.answer === '[flag_for_human_intervention]' ||
    meta.human_intervention_requested === true ||
    /flagged for human intervention/.test(score.explanation ?? '');
  if (flagged) return { outcome: 'failed', stopReason: 'flagged' };
  // livecodebench_scorers.py: an exception from the sandbox (not a timeout of the code) is written as a failed run.
  const infra = [meta.stderr, meta.test_stderr].find((t) => /^(Verification|Test execution) failed: /.test(t ?? ''));
  if (infra) return { outcome: 'error', error: `the harness could not run the tests: ${infra.split('\n')[0]}` };
  const v = score.value;
  if (v === 'C' || v === 1 || v === true) return { outcome: 'passed' };
  if (v === 'I' || v === 0 || v === false) return { outcome: 'failed' };
  return { outcome: 'error', error: `score ${name}: value ${JSON.stringify(v)} is neither a pass nor a fail` };
}

function attemptsOf(sample: ReadSample, cell: HarnessCell, meta: Meta): number {
  // livecodebench_scorers.py: the minimal LCB loop's own count of its attempts.
  if (meta.attempts_made !== undefined) return meta.attempts_made;
  const assistant = sample.messages.filter((m) => m.role === 'assistant');
  // The tools agents are Inspect's basic_agent: one `submit` call per submission.
  if (cell.scaffold === 'full') return assistant.flatMap((m) => m.tool_calls ?? []).filter((c) => c.function === 'submit').length;
  // livecodebench_agent_mini.py: one model turn per attempt.
  if (cell.suite === 'lcb') return assistant.length;
  const text = (m: (typeof assistant)[number]) => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('\n'));
  return assistant.filter((m) => SUBMIT_MARKERS.some((k) => text(m).includes(k))).length;
}

function stopReasonOf(graded: Graded, fields: Fields, attempts: number, cell: HarnessCell): StopReason {
  if (graded.outcome === 'error') return 'error';
  if (graded.stopReason) return graded.stopReason;
  const limit = fields.limit ? LIMITS[fields.limit.type] : undefined;
  if (graded.outcome === 'failed' && limit) return limit;
  return graded.outcome === 'failed' && attempts >= cell.maxAttempts ? 'max_attempts' : 'submitted';
}

/** The files a unified diff from `git diff` touches, each with its own block of the diff. */
function diffBlocks(diff: string): { path: string; text: string }[] {
  return diff
    .split(/^(?=diff --git )/m)
    .filter((b) => b.startsWith('diff --git '))
    .map((text) => ({ path: /^diff --git a\/(\S+) b\//.exec(text)?.[1] ?? '', text }));
}

/** swebench_scorers.py writes one diff of everything since base_commit: its test files are the test patch's, or named as tests. */
function splitPatch(patch: string, testPatch: string): { sourceDiff: string; testDiff: string } {
  const patched = new Set(diffBlocks(testPatch).map((b) => b.path));
  const blocks = diffBlocks(patch);
  const isTest = (p: string) => patched.has(p) || isTestFile(p);
  return {
    sourceDiff: blocks
      .filter((b) => !isTest(b.path))
      .map((b) => b.text)
      .join(''),
    testDiff: blocks
      .filter((b) => isTest(b.path))
      .map((b) => b.text)
      .join(''),
  };
}

function usageOf(fields: Fields) {
  const usage = Object.values(fields.model_usage);
  const sum = (f: (u: (typeof usage)[number]) => number) => usage.reduce((n, u) => n + f(u), 0);
  const costs = usage.map((u) => u.total_cost);
  return {
    // Providers differ on whether input_tokens holds the cached part; total less output is the whole prompt either way.
    inputTokens: sum((u) => Math.max(u.input_tokens, u.total_tokens - u.output_tokens)),
    outputTokens: sum((u) => u.output_tokens),
    cacheReadTokens: sum((u) => u.input_tokens_cache_read ?? 0),
    cacheWriteTokens: sum((u) => u.input_tokens_cache_write ?? 0),
    costUsd: usage.length && costs.every((c) => typeof c === 'number') ? sum((u) => u.total_cost ?? 0) : null,
  };
}

function timesOf(header: ReadHeader, fields: Fields): { startedAt: string; endedAt: string; wallMs: number } {
  const startedAt = fields.started_at ?? header.stats.started_at;
  const wallMs =
    fields.total_time != null
      ? Math.round(fields.total_time * 1000)
      : fields.completed_at
        ? Date.parse(fields.completed_at) - Date.parse(startedAt)
        : 0;
  const endedAt = fields.completed_at ?? new Date(Date.parse(startedAt) + wallMs).toISOString();
  return { startedAt, endedAt, wallMs: Math.max(0, wallMs) };
}

function gradingLogOf(scores: ReadScores, name: string | undefined, meta: Meta): string {
  const score = name ? scores[name] : undefined;
  const parts = [score?.explanation, meta.stdout ?? meta.test_stdout, meta.stderr ?? meta.test_stderr];
  if (meta.test_py_was_modified) parts.push('the harness found test.py modified and restored it before grading');
  return parts.filter((p): p is string => !!p).join('\n');
}

function sample(header: ReadHeader, s: ReadSample): ImportedSample {
  const cell = harnessCell(header);
  const fields = checkField(SampleFields, s, '');
  const split = fields.metadata.impossible_type;
  if (split && split !== cell.split)
    throw new UserError(`field metadata.impossible_type: ${split}, but the task ${header.eval.task} runs split ${cell.split}`);
  const scores = s.scores ?? {};
  const name = SCORERS.find((n) => n in scores);
  const meta = checkField(ScoreMeta, (name && scores[name]?.metadata) ?? {}, name ? `scores.${name}.metadata` : '');
  const graded = grade(s, name, meta);
  const attempts = attemptsOf(s, cell, meta);
  const lacks = [
    'outsideChanges: the harness does not record changes outside the repository',
    'refusals: the harness does not count refused turns',
    'tamper: the harness does not look for tampering with its test runner',
  ];
  if (cell.suite === 'lcb') lacks.push('evaded: the harness passes on exit code 0, so a check cut short reads as passed');
  const patch = meta.model_patch;
  const diffs = patch !== undefined && !UNREAD_PATCH.test(patch) ? splitPatch(patch, fields.metadata.test_patch ?? '') : undefined;
  if (!diffs) lacks.push('diffs: the classifier saw only the transcript');
  // Inspect before sample times were logged: the eval's start stands in.
  if (!fields.started_at) lacks.push("startedAt: the log does not time its samples; the eval's start stands in");
  const record: SampleRecord = {
    key: {
      model: header.eval.model,
      dataset: cell.dataset,
      split: cell.split,
      taskId: String(fields.id),
      scaffold: cell.scaffold,
      access: cell.access,
      prompt: cell.prompt,
      maxAttempts: cell.maxAttempts,
      // Inspect counts epochs from 1, we from 0.
      epoch: s.epoch - 1,
    },
    outcome: graded.outcome,
    stopReason: stopReasonOf(graded, fields, attempts, cell),
    attempts,
    ...usageOf(fields),
    refusals: 0,
    ...timesOf(header, fields),
    transcript: fromInspectMessages(s.messages),
    sourceDiff: diffs?.sourceDiff ?? '',
    testDiff: diffs?.testDiff ?? '',
    outsideChanges: '',
    gradingLog: gradingLogOf(scores, name, meta),
    tamper: [],
    ...(graded.error ? { error: graded.error } : {}),
  };
  return { record, scores, lacks };
}

export const harnessLogKind: LogKind = {
  name: 'impossiblebench-harness',
  graded: true,
  description: 'logs of the published ImpossibleBench harness (Inspect tasks impossible_livecodebench, impossible_swebench)',
  matches: isHarnessHeader,
  sample,
};
