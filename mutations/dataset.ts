import { taskImage } from '../tasks/images.js';
import type { LcbTask, SweTask, Task } from '../tasks/task.js';
import type { MutationType } from './outcome.js';
import { type MutateTaskExtras, mutateTask } from './task.js';
import type { SandboxBackend } from '../docker/types.js';
import { validateLcbVariants, type Verdict } from './validate/lcb.js';
import { type SweValidationOptions, validateSweVariants } from './validate/swe.js';

export interface SkippedRow {
  id: string;
  /**
   * `unvalidated`: the checks could not run (no engine, no image); `environment`: the task does not work in its
   * image (the gold patch's run broke or failed the original tests). Neither says anything of the variant.
   */
  stage: 'mutate' | 'validate' | 'environment' | 'unvalidated';
  reason: string;
}

export interface DatasetMutation {
  /** The variants made (and validated, when asked), in the order of the source rows. */
  variants: Task[];
  skipped: SkippedRow[];
  /** Source tasks mutated (one per id). */
  sources: number;
  mutateMs: number;
  validateMs?: number;
  /** Verdicts by task id, when validated. */
  verdicts?: Map<string, Verdict>;
}

export interface MutateOptions {
  validate?: boolean;
  /** Sandboxes or variants validated side by side. */
  concurrency?: number;
  runId?: string;
  /** Where validation's sandboxes come from (default: the default backend). */
  backend?: SandboxBackend;
  onProgress?: (stage: 'mutate' | 'validate', done: number, total: number) => void;
  signal?: AbortSignal;
  /** Images the engine lacks, and the command that gets them: their variants are left out unvalidated. */
  missingImages?: { images: ReadonlySet<string>; fix: string };
  /** The image a SWE variant's validation sandbox starts from, when not its own (a history image). */
  imageFor?: SweValidationOptions['imageFor'];
  /** A SWE task's test files at its base commit, when its repository is at hand: the engine may then use whole files. */
  baseFiles?: (task: SweTask) => Promise<ReadonlyMap<string, string> | undefined>;
  /** A model asked for the variants the engine cannot make; they are validated like any other. */
  model?: MutateTaskExtras['model'];
}

/** One source per task id: its original row if the dataset has one, else any variant (they share the original tests). */
export function sourcesOf(tasks: readonly Task[]): Task[] {
  const byId = new Map<string, Task>();
  for (const t of tasks) {
    const seen = byId.get(t.id);
    if (!seen || (seen.variant !== 'original' && t.variant === 'original')) byId.set(t.id, t);
  }
  return [...byId.values()].map((t) => (t.variant === 'original' ? t : asOriginal(t)));
}

function asOriginal(t: Task): Task {
  const { mutation: _drop, ...rest } = t;
  return t.kind === 'lcb'
    ? ({ ...rest, variant: 'original', test: t.originalTest } as LcbTask)
    : ({ ...rest, variant: 'original', testPatch: t.originalTestPatch } as SweTask);
}

/** Where a rejected variant was stopped: its own fault, its environment's, or the checks'. */
export function verdictStage(v: Verdict | undefined): SkippedRow['stage'] {
  if (v?.infrastructure || v === undefined) return 'unvalidated';
  return v.environment ? 'environment' : 'validate';
}

/** Makes the `type` variant of every task, and validates them in Docker when asked. */
export async function mutateTasks(tasks: readonly Task[], type: MutationType, seed: number, options: MutateOptions = {}): Promise<DatasetMutation> {
  const sources = sourcesOf(tasks);
  const skipped: SkippedRow[] = [];
  let variants: Task[] = [];
  const t0 = performance.now();
  for (const [i, task] of sources.entries()) {
    options.signal?.throwIfAborted();
    let m = await mutateTask(task, type, seed);
    // Whole files are read only for what the patch alone cannot do, then a model is asked for the rest.
    const baseFiles = !m.ok && task.kind === 'swe' && options.baseFiles ? await options.baseFiles(task) : undefined;
    if (!m.ok && (baseFiles || options.model))
      m = await mutateTask(task, type, seed, { ...(baseFiles ? { baseFiles } : {}), ...(options.model ? { model: options.model } : {}) });
    if (m.ok) variants.push(m.task);
    else skipped.push({ id: task.id, stage: 'mutate', reason: m.reason });
    options.onProgress?.('mutate', i + 1, sources.length);
  }
  const result: DatasetMutation = { variants, skipped, sources: sources.length, mutateMs: performance.now() - t0 };
  if (!options.validate || variants.length === 0) return result;
  const t1 = performance.now();
  const verdicts = new Map<string, Verdict>();
  let done = 0;
  const onDone = (task: Task, verdict: Verdict) => {
    verdicts.set(task.id, verdict);
    options.onProgress?.('validate', ++done, variants.length);
  };
  const missing = options.missingImages;
  const runnable = missing ? variants.filter((t) => !missing.images.has(taskImage(t))) : variants;
  for (const t of variants) {
    if (runnable.includes(t)) continue;
    onDone(t, { ok: false, infrastructure: true, reason: `its image ${taskImage(t)} is missing (get it: ${missing!.fix})`, evidence: [] });
  }
  const lcb = runnable.filter((t): t is LcbTask => t.kind === 'lcb');
  const swe = runnable.filter((t): t is SweTask => t.kind === 'swe');
  const common = { runId: options.runId, signal: options.signal, backend: options.backend, onDone };
  if (lcb.length > 0) await validateLcbVariants(lcb, { ...common, sandboxes: options.concurrency });
  if (swe.length > 0)
    await validateSweVariants(swe, { ...common, concurrency: options.concurrency, ...(options.imageFor ? { imageFor: options.imageFor } : {}) });
  variants = variants.filter((t) => {
    const v = verdicts.get(t.id);
    if (v?.ok) return true;
    skipped.push({ id: t.id, stage: verdictStage(v), reason: v?.reason ?? 'not validated' });
    return false;
  });
  return { ...result, variants, skipped, validateMs: performance.now() - t1, verdicts };
}
