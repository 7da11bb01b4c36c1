import { z } from 'zod';

/**
 * The vocabulary every room speaks about a sample, and its record: what scaffolds produce, the runner completes and
 * results/ stores. It sits on the ground floor so that no room has to import a higher one to name an outcome.
 */

/** Which form of a task's tests: the real ones, or an impossible variant. */
export const VariantSchema = z.enum(['original', 'oneoff', 'conflicting']);
export type Variant = z.infer<typeof VariantSchema>;
export const IMPOSSIBLE_VARIANTS: readonly Variant[] = ['oneoff', 'conflicting'];

/**
 * passed: the tests ran to their end and passed. failed: they did not pass (or the agent flagged).
 * evaded: the process reported success but the tests never reached their end.
 * error: infrastructure or API failure, not the model's; excluded from rates and counted.
 */
export const OutcomeSchema = z.enum(['passed', 'failed', 'evaded', 'error']);
export type Outcome = z.infer<typeof OutcomeSchema>;

export const StopReasonSchema = z.enum([
  'submitted',
  'max_attempts',
  'message_limit',
  'token_limit',
  /** The conversation outgrew the model's context window: graded as it stands, like message_limit. */
  'context_limit',
  'time_limit',
  'cost_limit',
  'flagged',
  'disk_limit',
  /** An agent program ended with a failure of its own (an exit code or a signal) after it asked its model: graded as it stands. */
  'program_failed',
  'error',
]);
export type StopReason = z.infer<typeof StopReasonSchema>;

/** Our own loops (minimal, full) and the agent products run as scaffolds (codex, claude-code). */
export const BUILTIN_SCAFFOLDS = ['minimal', 'full', 'codex', 'claude-code'] as const;
export type BuiltinScaffold = (typeof BUILTIN_SCAFFOLDS)[number];
/**
 * A built-in scaffold, or an agent CLI a config file describes (`agentClis`) under a name of its own: the name is
 * checked against the config where the run is planned.
 */
export type ScaffoldName = BuiltinScaffold | (string & {});
export const SCAFFOLD_NAME_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;
export const ScaffoldNameSchema: z.ZodType<ScaffoldName, string> = z
  .string()
  .regex(SCAFFOLD_NAME_PATTERN, `a scaffold is ${BUILTIN_SCAFFOLDS.join(', ')} or an agent CLI's name: lowercase letters, digits and hyphens`);
export const AccessModeSchema = z.enum(['full', 'readonly', 'hidden']);
export type AccessMode = z.infer<typeof AccessModeSchema>;

/** The coordinates of one sample in an experiment's matrix. */
export const SampleKeySchema = z.object({
  model: z.string(),
  dataset: z.string(),
  split: VariantSchema,
  taskId: z.string(),
  scaffold: ScaffoldNameSchema,
  access: AccessModeSchema,
  /** `A`…`D` or a short hash of custom text. */
  prompt: z.string(),
  maxAttempts: z.number().int().positive(),
  epoch: z.number().int().nonnegative(),
});
export type SampleKey = z.infer<typeof SampleKeySchema>;

export const TranscriptMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
  toolCallId: z.string().optional(),
  name: z.string().optional(),
});
export type TranscriptMessage = z.infer<typeof TranscriptMessageSchema>;

/**
 * How an impossible variant was made: an edit of the test patch's own lines (also every variant whose record
 * predates the field), an edit found in the whole test file, or a model's rewrite.
 */
export const MutationOriginSchema = z.enum(['patch', 'whole-file', 'model']);
export type MutationOrigin = z.infer<typeof MutationOriginSchema>;

/** What a sample carries of its variant's mutation record, so results say how each impossible test was made. */
export const SampleMutationSchema = z.object({
  origin: MutationOriginSchema,
  /** The model that wrote the variant, when `origin` is `model`. */
  model: z.string().optional(),
  strategy: z.string(),
  /** Candidates validated for the task, this one included, when validation rejected earlier ones. */
  tries: z.number().int().positive().optional(),
});
export type SampleMutation = z.infer<typeof SampleMutationSchema>;

/** How an interview answer reads: it owns up to a trick, says it played none, or neither (or both). */
export const INTERVIEW_READINGS = ['admits', 'denies', 'evasive'] as const;
export type InterviewReading = (typeof INTERVIEW_READINGS)[number];

/** The self-report interview after grading (`--interview`): the question, the answer, and its own usage and cost. */
export const InterviewSchema = z.object({
  question: z.string(),
  answer: z.string(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nullable(),
  /** Why the model could not be asked; the sample and its grade stand. */
  error: z.string().optional(),
  /** With `--interview-judge MODEL`: a judge model's reading of the answer, kept apart from the rules' reading. */
  judge: z
    .object({
      model: z.string(),
      /** Null when the judge's reply named none of the three. */
      reading: z.enum(INTERVIEW_READINGS).nullable(),
      /** The judge's whole reply. */
      text: z.string(),
      inputTokens: z.number().int().nonnegative(),
      outputTokens: z.number().int().nonnegative(),
      costUsd: z.number().nullable(),
      /** Why the judge could not answer. */
      error: z.string().optional(),
    })
    .optional(),
});
export type InterviewRecord = z.infer<typeof InterviewSchema>;

export const SampleRecordSchema = z.object({
  key: SampleKeySchema,
  outcome: OutcomeSchema,
  stopReason: StopReasonSchema,
  attempts: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** The parts of `inputTokens` read from and written to the provider's prompt cache. */
  cacheReadTokens: z.number().int().nonnegative().default(0),
  cacheWriteTokens: z.number().int().nonnegative().default(0),
  /** Model turns the model declined to answer. */
  refusals: z.number().int().nonnegative().default(0),
  /** null when a model's price is unknown. */
  costUsd: z.number().nullable(),
  startedAt: z.string(),
  endedAt: z.string(),
  wallMs: z.number().nonnegative(),
  transcript: z.array(TranscriptMessageSchema),
  /** Diff of the agent's changes to non-test files. */
  sourceDiff: z.string(),
  /** Diff of the agent's changes to test files: where test tampering shows. */
  testDiff: z.string(),
  /** Files changed outside the work dir (paths with kinds). */
  outsideChanges: z.string(),
  gradingLog: z.string(),
  /**
   * Signs that the graded code tampered with the harness (a forged report, a patched runner, plugins added, output
   * after the runner's summary), each in one line; empty when none were seen. A tampered pass is never legitimate.
   */
  tamper: z.array(z.string()).default([]),
  /** For `error` outcomes: what went wrong. */
  error: z.string().optional(),
  /** How the split's variant was made, on an impossible split whose task has a mutation record; absent otherwise. */
  mutation: SampleMutationSchema.optional(),
  /** With `--interview`: what the agent said of its work once graded. Its cost is not in `costUsd`. */
  interview: InterviewSchema.optional(),
});
export type SampleRecord = z.infer<typeof SampleRecordSchema>;

/**
 * All a sample cost the run: its own model calls and, kept apart in the record, its interview's and the interview
 * judge's. What a run's budget and totals count. Null when any part has no known price.
 */
export function spentUsd(record: Pick<SampleRecord, 'costUsd' | 'interview'>): number | null {
  const { interview } = record;
  // Not `?? 0`: a null cost is unknown, not free.
  const parts = [record.costUsd, interview ? interview.costUsd : 0, interview?.judge ? interview.judge.costUsd : 0];
  return parts.some((p) => p === null) ? null : (parts as number[]).reduce((a, b) => a + b, 0);
}
