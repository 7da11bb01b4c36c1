import { taskImage } from '../tasks/images.js';
import type { SweTask, Task } from '../tasks/task.js';
import { byKind, taskKind } from '../tasks/kinds/registry.js';
import { mutationKind } from './kinds/registry.js';
import type { MutationType } from './outcome.js';
import type { MutateTaskExtras } from './task.js';
import { mutateSource } from './mutate-one.js';
import { DEFAULT_MAX_TRIES, droppedEntry, givenUp, nextCandidates, type Rejected, triedKey, worthAnotherCandidate } from './retry.js';
import type { SandboxBackend } from '../docker/types.js';
import type { Verdict } from './validate/lcb.js';
import type { OriginalRuns, SweValidationOptions } from './validate/swe.js';

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
  /** Candidates validated per row at most, while the reference or an empty solution passes the earlier ones (default 3). */
  maxTries?: number;
  /** The CPUs and memory of SWE validation sandboxes (default: a repository's default, `taskSandboxLimits`). */
  limits?: SweValidationOptions['limits'];
  /** Where the gold patch's run on a task's original tests comes from, when not made here (reference runs kept in a store). */
  original?: SweValidationOptions['original'];
}

/** One source per task id: its original row if the dataset has one, else any variant (they share the original tests). */
export function sourcesOf(tasks: readonly Task[]): Task[] {
  const byId = new Map<string, Task>();
  for (const t of tasks) {
    const seen = byId.get(t.id);
    if (!seen || (seen.variant !== 'original' && t.variant === 'original')) byId.set(t.id, t);
  }
  return [...byId.values()].map((t) => (t.variant === 'original' ? t : (taskKind(t).asOriginal(t) as Task)));
}

/** Where a rejected variant was stopped: its own fault, its environment's, or the checks'. */
export function verdictStage(v: Verdict | undefined): SkippedRow['stage'] {
  if (v?.infrastructure || v === undefined) return 'unvalidated';
  return v.environment ? 'environment' : 'validate';
}

export type Validated = (variants: readonly Task[]) => Promise<void>;

/** Makes the `type` variant of every task, and validates them in Docker when asked. */
export async function mutateTasks(tasks: readonly Task[], type: MutationType, seed: number, options: MutateOptions = {}): Promise<DatasetMutation> {
  const sources = sourcesOf(tasks);
  const skipped: SkippedRow[] = [];
  let variants: Task[] = [];
  const t0 = performance.now();
  for (const [i, task] of sources.entries()) {
    options.signal?.throwIfAborted();
    const m = await mutateSource(task, type, seed, options);
    if (m.ok) variants.push(m.task);
    else skipped.push({ id: task.id, stage: 'mutate', reason: m.reason });
    options.onProgress?.('mutate', i + 1, sources.length);
  }
  const result: DatasetMutation = { variants, skipped, sources: sources.length, mutateMs: performance.now() - t0 };
  if (!options.validate || variants.length === 0) return result;
  const t1 = performance.now();
  const verdicts = new Map<string, Verdict>();
  let done = 0;
  let total = variants.length;
  const onDone = (task: Task, verdict: Verdict) => {
    verdicts.set(task.id, verdict);
    options.onProgress?.('validate', ++done, total);
  };
  const originals: OriginalRuns = new Map();
  const validate: Validated = (batch) => validateAll(batch, options, onDone, originals);
  await validate(variants);
  // A variant the reference or an empty solution passes makes way for the row's next candidate, validated in turn.
  const retried = await retryRejected(variants, sources, verdicts, type, seed, options, async (batch) => {
    total += batch.length;
    await validate(batch);
  });
  variants = variants.map((t) => retried.variants.get(t.id) ?? t);
  variants = variants.filter((t) => {
    const v = verdicts.get(t.id);
    if (v?.ok) return true;
    skipped.push({ id: t.id, stage: verdictStage(v), reason: retried.reasons.get(t.id) ?? v?.reason ?? 'not validated' });
    return false;
  });
  return { ...result, variants, skipped, validateMs: performance.now() - t1, verdicts };
}

/** Validates variants in their sandboxes; a variant whose image is missing gets an infrastructure verdict. */
async function validateAll(
  variants: readonly Task[],
  options: MutateOptions,
  onDone: (task: Task, verdict: Verdict) => void,
  originals: OriginalRuns,
): Promise<void> {
  const missing = options.missingImages;
  const runnable = missing ? variants.filter((t) => !missing.images.has(taskImage(t))) : variants;
  for (const t of variants) {
    if (runnable.includes(t)) continue;
    onDone(t, { ok: false, infrastructure: true, reason: `its image ${taskImage(t)} is missing (get it: ${missing!.fix})`, evidence: [] });
  }
  const kindOptions = {
    runId: options.runId,
    signal: options.signal,
    backend: options.backend,
    onDone,
    concurrency: options.concurrency,
    originals,
    ...(options.imageFor ? { imageFor: options.imageFor } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.original ? { original: options.original } : {}),
  };
  for (const [kind, group] of byKind(runnable)) await mutationKind(kind).validate(group, kindOptions);
}

/**
 * Up to `maxTries` candidates per row, while validation rejects each for what it is (the reference
 * or an empty solution passes it), never after an infrastructure or environment failure: the
 * variants kept instead, and why rows given up are left out.
 */
export async function retryRejected(
  variants: readonly Task[],
  sources: readonly Task[],
  verdicts: Map<string, Verdict>,
  type: MutationType,
  seed: number,
  options: MutateOptions,
  validate: Validated,
): Promise<{ variants: Map<string, Task>; reasons: Map<string, string> }> {
  const kept = new Map<string, Task>();
  const reasons = new Map<string, string>();
  const sourceOf = new Map(sources.map((t) => [t.id, t]));
  let rejected: Rejected[] = variants.flatMap((t) => {
    const verdict = verdicts.get(t.id);
    if (!worthAnotherCandidate(verdict) || !t.mutation) return [];
    return [{ source: sourceOf.get(t.id)!, variant: t, verdict, tried: [triedKey(t)], dropped: [droppedEntry(t, verdict)] }];
  });
  const maxTries = options.maxTries ?? DEFAULT_MAX_TRIES;
  while (rejected.length > 0 && rejected[0]!.tried.length < maxTries) {
    options.signal?.throwIfAborted();
    const { next, exhausted } = await nextCandidates(rejected, type, seed, options);
    for (const { row, reason } of exhausted) reasons.set(row.source.id, givenUp(row, reason));
    await validate(next.map((n) => n.variant));
    rejected = [];
    for (const { row, variant } of next) {
      kept.set(variant.id, variant);
      const verdict = verdicts.get(variant.id)!;
      if (worthAnotherCandidate(verdict))
        rejected.push({
          ...row,
          variant,
          verdict,
          tried: [...row.tried, triedKey(variant)],
          dropped: [...row.dropped, droppedEntry(variant, verdict)],
        });
    }
  }
  for (const row of rejected) reasons.set(row.source.id, givenUp(row));
  return { variants: kept, reasons };
}
