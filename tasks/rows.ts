import { z } from 'zod';
import { LOG_PARSER_NAMES } from './env/log-parsers.js';
import { swebenchImage, type ImageNaming } from './images.js';
import { MutationRecordSchema, type LcbTask, type SweTask, type Task } from './task.js';
import { VariantSchema, type Variant } from '../core/record.js';

/**
 * The row formats this project reads, validated at the edge and mapped into the normalized Task:
 * `impossible_livecodebench` rows, `impossible_swebench` rows, and plain SWE-bench rows
 * (Verified, Lite). Unknown extra fields are ignored; optional ones may be missing or null.
 */

/** A list of strings, or the JSON text of one (SWE-bench ships both). */
const TestIdList = z.unknown().transform((value, ctx): string[] => {
  if (value === undefined || value === null) {
    ctx.addIssue({ code: 'custom', message: 'missing' });
    return z.NEVER;
  }
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not a list, nor JSON text of a list' });
      return z.NEVER;
    }
  }
  if (!Array.isArray(list) || !list.every((id) => typeof id === 'string')) {
    ctx.addIssue({
      code: 'custom',
      message: typeof value === 'string' ? 'JSON text that is not a list of strings' : 'expected a list of test ids (strings)',
    });
    return z.NEVER;
  }
  return list as string[];
});

const optionalText = z.string().nullish();
/** `impossible_type`: the variant; null or missing means the original. */
const ImpossibleType = VariantSchema.nullish();

/** How a variant was made, as `impossiblebench mutate` writes it beside the row; runs carry it into each sample. */
const RowMutation = MutationRecordSchema.nullish();

export const LcbRowSchema = z.object({
  task_id: z.string().min(1),
  prompt: z.string(),
  entry_point: z.string().min(1),
  test: z.string(),
  original_test: optionalText,
  impossible_type: ImpossibleType,
  solution: optionalText,
  mutation: RowMutation,
});
export type LcbRow = z.infer<typeof LcbRowSchema>;

export const SweRowSchema = z.object({
  instance_id: z.string().min(1),
  repo: z.string().min(1),
  base_commit: z.string().min(1),
  patch: z.string(),
  test_patch: z.string(),
  problem_statement: z.string(),
  hints_text: optionalText,
  created_at: z.union([z.string(), z.number(), z.date()]).nullish(),
  version: z.union([z.string(), z.number()]).nullish(),
  environment_setup_commit: optionalText,
  difficulty: optionalText,
  FAIL_TO_PASS: TestIdList,
  PASS_TO_PASS: TestIdList,
  // impossible_swebench only:
  original_test_patch: optionalText,
  impossible_type: ImpossibleType,
  first_fail_to_pass_test: optionalText,
  mutation: RowMutation,
  // Any repository: how to test it, and a ready image that holds it at /testbed.
  test_cmd: z.string().trim().min(1).nullish(),
  log_parser: z.enum(LOG_PARSER_NAMES).nullish(),
  image_name: z.string().trim().min(1).nullish(),
});
export type SweRow = z.infer<typeof SweRowSchema>;

export interface RowContext {
  /** Shown in reports, e.g. the file path or `hf:owner/name`. */
  source: string;
  /** The split the row came from, when the source has splits. */
  split?: string;
  /** How rows without an `image_name` name their SWE-bench image. */
  images?: ImageNaming;
}

/** One problem with one row: where, which field, what. */
export interface RowProblem {
  file: string;
  /** 1-based: the line of a .jsonl file, the element of a .json array, the row of a parquet file. */
  row: number;
  field: string;
  message: string;
}

export function formatProblem(p: RowProblem): string {
  return `${p.file}: row ${p.row}: ${p.field}: ${p.message}`;
}

export type RowResult = { ok: true; task: Task } | { ok: false; problems: Omit<RowProblem, 'file' | 'row'>[] };

function variantOf(impossibleType: Variant | null | undefined, split: string | undefined): Variant {
  if (impossibleType) return impossibleType;
  const fromSplit = VariantSchema.safeParse(split);
  return fromSplit.success ? fromSplit.data : 'original';
}

function issues(error: z.ZodError): Omit<RowProblem, 'file' | 'row'>[] {
  return error.issues.map((issue) => {
    const field = issue.path.length ? issue.path.join('.') : '(row)';
    // zod says "expected string, received undefined" for a missing key: say it plainly.
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    return { field, message: missing ? 'missing' : issue.message };
  });
}

export function lcbRowToTask(row: unknown, ctx: RowContext): RowResult {
  const parsed = LcbRowSchema.safeParse(row);
  if (!parsed.success) return { ok: false, problems: issues(parsed.error) };
  const r = parsed.data;
  const variant = variantOf(r.impossible_type, ctx.split);
  if (variant !== 'original' && !r.original_test) {
    return { ok: false, problems: [{ field: 'original_test', message: `missing (required for a ${variant} variant)` }] };
  }
  const task: LcbTask = {
    kind: 'lcb',
    id: r.task_id,
    variant,
    source: ctx.source,
    prompt: r.prompt,
    entryPoint: r.entry_point,
    test: r.test,
    originalTest: r.original_test ?? r.test,
    ...(r.solution ? { solution: r.solution } : {}),
    ...(r.mutation && variant !== 'original' ? { mutation: r.mutation } : {}),
  };
  return { ok: true, task };
}

export function sweRowToTask(row: unknown, ctx: RowContext): RowResult {
  const parsed = SweRowSchema.safeParse(row);
  if (!parsed.success) return { ok: false, problems: issues(parsed.error) };
  const r = parsed.data;
  const variant = variantOf(r.impossible_type, ctx.split);
  if (variant !== 'original' && !r.original_test_patch) {
    return { ok: false, problems: [{ field: 'original_test_patch', message: `missing (required for a ${variant} variant)` }] };
  }
  const createdAt = r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at;
  const task: SweTask = {
    kind: 'swe',
    id: r.instance_id,
    variant,
    source: ctx.source,
    repo: r.repo,
    baseCommit: r.base_commit,
    problemStatement: r.problem_statement,
    hintsText: r.hints_text ?? '',
    patch: r.patch,
    testPatch: r.test_patch,
    originalTestPatch: r.original_test_patch ?? r.test_patch,
    failToPass: r.FAIL_TO_PASS,
    passToPass: r.PASS_TO_PASS,
    ...(r.version != null ? { version: String(r.version) } : {}),
    ...(r.environment_setup_commit ? { environmentSetupCommit: r.environment_setup_commit } : {}),
    ...(createdAt != null ? { createdAt: String(createdAt) } : {}),
    ...(r.difficulty ? { difficulty: r.difficulty } : {}),
    ...(r.mutation && variant !== 'original' ? { mutation: r.mutation } : {}),
    repoSource: { type: 'image', image: r.image_name ?? swebenchImage(r.instance_id, ctx.images) },
    ...(r.test_cmd || r.log_parser
      ? { testSpec: { ...(r.test_cmd ? { testCmd: r.test_cmd } : {}), ...(r.log_parser ? { parser: r.log_parser } : {}), origin: 'the row' } }
      : {}),
  };
  return { ok: true, task };
}
