import { z } from 'zod';
import { MutationOriginSchema, VariantSchema } from '../core/record.js';
import { LOG_PARSER_NAMES, TEST_STATUSES } from './env/log-parsers.js';

/** What a mutation changed, so every impossible variant can be explained. */
export const MutationRecordSchema = z.object({
  type: z.enum(['oneoff', 'conflicting']),
  /** The kind of variant that made it, by its name in the engine's list (`mutations/swe/kinds.ts`); none for LCB variants. */
  kind: z.string().optional(),
  strategy: z.string(),
  seed: z.number().int(),
  /** 1-based line in the mutated test (LCB) or in the mutated file (SWE). */
  line: z.number().int(),
  before: z.string(),
  after: z.string(),
  file: z.string().optional(),
  testId: z.string().optional(),
  /**
   * How the variant was made: an edit of the patch's own lines (the default, also for records
   * written before this field), an edit found in the whole test file, or a model's rewrite.
   */
  origin: MutationOriginSchema.optional(),
  /** The model that wrote the variant, when `origin` is `model`. */
  model: z.string().optional(),
  /** Candidates validated for the row, this one included, when validation rejected earlier ones. */
  tries: z.number().int().positive().optional(),
  /** Graded tests the variant adds to FAIL_TO_PASS (a duplicated parametrize case): the original tests have none of them. */
  addedTests: z.array(z.string()).optional(),
  /** The earlier candidates, in order, and why validation dropped each (the gold or an empty patch passed it). */
  dropped: z.array(z.object({ strategy: z.string(), line: z.number().int(), before: z.string(), after: z.string(), reason: z.string() })).optional(),
});
export type MutationRecord = z.infer<typeof MutationRecordSchema>;

/** A test spec a row or config gives: the command (test files are appended), its log parser, variables. */
export const TestSpecSchema = z.object({
  testCmd: z.string().trim().min(1).optional(),
  parser: z.enum(LOG_PARSER_NAMES).optional(),
  env: z.record(z.string(), z.string()).optional(),
  /** Where it came from, in words (`the row`, `the config's testSpecs`). */
  origin: z.string().optional(),
});
export type TestSpec = z.infer<typeof TestSpecSchema>;

const common = {
  /** Unique within a dataset and variant: `lcbhard_3`, `astropy__astropy-12907`. */
  id: z.string().min(1),
  variant: VariantSchema,
  /** Where the row came from, e.g. `builtin:lcb` or a file path; shown in reports. */
  source: z.string(),
  mutation: MutationRecordSchema.optional(),
};

/** A LiveCodeBench-style task in HumanEval form. */
export const LcbTaskSchema = z.object({
  kind: z.literal('lcb'),
  ...common,
  /** Signature and docstring with an empty body. */
  prompt: z.string(),
  entryPoint: z.string().min(1),
  /** `def check(candidate): ...` for this variant: the graded test. */
  test: z.string(),
  originalTest: z.string(),
  /** A reference solution (full function source), where one is known. */
  solution: z.string().optional(),
});
export type LcbTask = z.infer<typeof LcbTaskSchema>;

/**
 * What the task's reference run showed: the gold patch on the original tests, in the task's image under the run's
 * limits. A graded test the agent's run skips or xfails counts as SWE-bench counts it only where the reference run
 * shows the same (`env/swe-contract.ts`): then the environment, not the agent, decided it.
 */
export const SweReferenceSchema = z.object({
  /** Each graded test's status in the reference run; `MISSING` when its log never named the test. */
  statuses: z.record(z.string(), z.enum([...TEST_STATUSES, 'MISSING'])),
  /** Why a graded test was skipped there, where the runner said so. */
  skipReasons: z.record(z.string(), z.string()).default({}),
});
export type SweReference = z.infer<typeof SweReferenceSchema>;

/** A SWE-bench-style task: a repository, an issue and a test patch. */
export const SweTaskSchema = z.object({
  kind: z.literal('swe'),
  ...common,
  repo: z.string(),
  baseCommit: z.string(),
  problemStatement: z.string(),
  hintsText: z.string().default(''),
  /** The gold fix. */
  patch: z.string(),
  /** The graded test patch for this variant (a whole diff against baseCommit). */
  testPatch: z.string(),
  originalTestPatch: z.string(),
  failToPass: z.array(z.string()),
  passToPass: z.array(z.string()),
  version: z.string().optional(),
  environmentSetupCommit: z.string().optional(),
  createdAt: z.string().optional(),
  difficulty: z.string().optional(),
  /**
   * Where the repository at baseCommit comes from: a local git repository (built-in suites,
   * fixtures) or a prepared image that already holds it at `/testbed` (SWE-bench images).
   */
  repoSource: z
    .discriminatedUnion('type', [z.object({ type: z.literal('git'), path: z.string() }), z.object({ type: z.literal('image'), image: z.string() })])
    .optional(),
  /**
   * How the repository is tested, where its row or the experiment names it; otherwise the SWE-bench
   * harness's spec for the repository and version (see `env/swe-specs.ts`).
   */
  testSpec: TestSpecSchema.optional(),
  /** The task's reference run in this run's environment, once made (`runner/orchestration/references.ts`); none under --no-reference. */
  reference: SweReferenceSchema.optional(),
});
export type SweTask = z.infer<typeof SweTaskSchema>;

export const TaskSchema = z.discriminatedUnion('kind', [LcbTaskSchema, SweTaskSchema]);
export type Task = z.infer<typeof TaskSchema>;
export type TaskKind = Task['kind'];

/** A SWE task whose repository comes from a prepared image (a SWE-bench instance image) rather than a local one. */
export type PreparedImageTask = SweTask & { repoSource: { type: 'image'; image: string } };

/** Whether a task's repository comes from a prepared image: its sandbox starts from that image. */
export function hasPreparedImage(task: Task): task is PreparedImageTask {
  return 'repoSource' in task && task.repoSource?.type === 'image';
}
