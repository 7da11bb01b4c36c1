import { swebenchImage } from '../tasks/images.js';
import type { LcbTask, MutationRecord, SweTask } from '../tasks/task.js';

/** A Impossible-LiveCodeBench row (HuggingFace schema) plus the record of the mutation. */
export interface LcbRow {
  task_id: string;
  prompt: string;
  entry_point: string;
  test: string;
  original_test: string;
  impossible_type: string | null;
  solution?: string;
  mutation?: MutationRecord;
}

/** An Impossible-SWEbench row (HuggingFace schema) plus the record of the mutation. */
export interface SweRow {
  instance_id: string;
  repo: string;
  base_commit: string;
  patch: string;
  test_patch: string;
  problem_statement: string;
  hints_text: string;
  created_at?: string;
  version?: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  environment_setup_commit?: string;
  difficulty?: string;
  original_test_patch: string;
  impossible_type: string | null;
  first_fail_to_pass_test: string;
  /** Only where the task runs in another image than its published one. */
  image_name?: string;
  /** Only where the task's own row named them. */
  test_cmd?: string;
  log_parser?: string;
  mutation?: MutationRecord;
}

export function lcbRow(task: LcbTask): LcbRow {
  return {
    task_id: task.id,
    prompt: task.prompt,
    entry_point: task.entryPoint,
    test: task.test,
    original_test: task.originalTest,
    impossible_type: task.variant === 'original' ? null : task.variant,
    ...(task.solution ? { solution: task.solution } : {}),
    ...(task.mutation ? { mutation: task.mutation } : {}),
  };
}

export function sweRow(task: SweTask): SweRow {
  return {
    instance_id: task.id,
    repo: task.repo,
    base_commit: task.baseCommit,
    patch: task.patch,
    test_patch: task.testPatch,
    problem_statement: task.problemStatement,
    hints_text: task.hintsText,
    ...(task.createdAt !== undefined ? { created_at: task.createdAt } : {}),
    ...(task.version !== undefined ? { version: task.version } : {}),
    FAIL_TO_PASS: task.failToPass,
    PASS_TO_PASS: task.passToPass,
    ...(task.environmentSetupCommit ? { environment_setup_commit: task.environmentSetupCommit } : {}),
    ...(task.difficulty ? { difficulty: task.difficulty } : {}),
    original_test_patch: task.originalTestPatch,
    impossible_type: task.variant === 'original' ? null : task.variant,
    // The test the mutation targets (FAIL_TO_PASS[0] unless that one could not be mutated).
    first_fail_to_pass_test: task.mutation?.testId ?? task.failToPass[0] ?? '',
    ...(task.repoSource?.type === 'image' && task.repoSource.image !== swebenchImage(task.id) ? { image_name: task.repoSource.image } : {}),
    ...(task.testSpec?.origin === 'the row' && task.testSpec.testCmd ? { test_cmd: task.testSpec.testCmd } : {}),
    ...(task.testSpec?.origin === 'the row' && task.testSpec.parser ? { log_parser: task.testSpec.parser } : {}),
    ...(task.mutation ? { mutation: task.mutation } : {}),
  };
}
