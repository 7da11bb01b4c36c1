import { retryRejected, verdictStage } from '../../mutations/dataset.js';
import type { MutationType } from '../../mutations/outcome.js';
import { mutationKind } from '../../mutations/kinds/registry.js';
import type { Verdict } from '../../mutations/validate/lcb.js';
import type { OriginalRuns, SweValidationOptions } from '../../mutations/validate/swe.js';
import { byKind } from '../../tasks/kinds/registry.js';
import type { SandboxBackend } from '../../docker/types.js';
import type { Task } from '../../tasks/task.js';

export interface ValidateMadeOptions {
  signal?: AbortSignal;
  backend?: SandboxBackend;
  imageFor?: SweValidationOptions['imageFor'];
  /** Candidates validated per row at most, while the reference or an empty solution passes the earlier ones (default 3). */
  maxTries?: number;
  /** The CPUs and memory of the SWE sandboxes, as the run's. */
  limits?: SweValidationOptions['limits'];
  /** The gold patch's run on a task's original tests, when the run made it already (its reference run). */
  original?: SweValidationOptions['original'];
}

/** What validation made of the variants a run generated: the ones to use instead (a row's later candidate), and the ones left out. */
export interface MadeValidated {
  replaced: Map<Task, Task>;
  dropped: Task[];
}

/**
 * Proves generated variants impossible in sandboxes (the reference passes the original and fails
 * the variant on the mutated assertion; an empty solution fails too). A variant the reference or an
 * empty solution passes makes way for the row's next candidate, as `mutate --validate` does, so a run
 * and a mutated dataset keep the same rows. Variants with nothing to check against (no reference
 * solution) are kept and said so.
 */
export async function validateMade(
  made: readonly Task[],
  originals: readonly Task[],
  seed: number,
  say: (line: string) => void,
  dataset: string,
  options: ValidateMadeOptions,
): Promise<MadeValidated> {
  const { signal, backend, imageFor, limits, original } = options;
  const checkable = made.filter((t) => mutationKind(t).canValidate(t));
  const unchecked = made.length - checkable.length;
  say(`validating ${checkable.length} generated variant(s) of ${dataset} in sandboxes...`);
  // Labelled so `cleanup` finds the validation sandboxes too, should the process die meanwhile.
  const kindOptions = {
    runId: `validate-${process.pid}`,
    backend,
    originals: new Map() as OriginalRuns,
    ...(signal ? { signal } : {}),
    ...(imageFor ? { imageFor } : {}),
    ...(limits ? { limits } : {}),
    ...(original ? { original } : {}),
  };
  // Each kind validates its own variants; the validators answer in input order.
  const validate = async (tasks: readonly Task[]): Promise<Map<Task, Verdict>> => {
    const out = new Map<Task, Verdict>();
    for (const [kind, group] of byKind(tasks)) {
      const answers = await mutationKind(kind).validate(group, kindOptions);
      for (const [i, t] of group.entries()) out.set(t, answers[i]!);
    }
    return out;
  };
  const verdicts = await validate(checkable);

  const replaced = new Map<Task, Task>();
  const reasons = new Map<Task, string>();
  for (const type of ['oneoff', 'conflicting'] as const satisfies readonly MutationType[]) {
    const ofType = checkable.filter((t) => t.variant === type);
    if (ofType.length === 0) continue;
    const byId = new Map(ofType.map((t) => [t.id, verdicts.get(t)!]));
    const retried = await retryRejected(ofType, originals, byId, type, seed, { ...options, backend }, async (batch) => {
      say(`  validating the next candidate of ${batch.length} row(s) whose ${type} variant was not impossible...`);
      for (const [t, verdict] of await validate(batch)) byId.set(t.id, verdict);
    });
    for (const t of ofType) {
      const later = retried.variants.get(t.id);
      if (later) replaced.set(t, later);
      verdicts.set(t, byId.get(t.id)!);
      const why = retried.reasons.get(t.id);
      if (why) reasons.set(t, why);
    }
  }

  const dropped = sayVerdicts(verdicts, reasons, replaced, unchecked, say);
  for (const t of dropped) replaced.delete(t);
  return { replaced, dropped };
}

/** Says which variants were left out and why, and how many are ready; gives the ones left out. */
function sayVerdicts(
  verdicts: Map<Task, Verdict>,
  reasons: Map<Task, string>,
  replaced: Map<Task, Task>,
  unchecked: number,
  say: (line: string) => void,
): Task[] {
  const dropped: Task[] = [];
  const byStage = { validate: 0, environment: 0, unvalidated: 0, mutate: 0 };
  for (const [task, verdict] of verdicts) {
    if (verdict.ok) continue;
    dropped.push(task);
    byStage[verdictStage(verdict)]++;
    say(`  ${task.id} ${task.variant}: left out (${reasons.get(task) ?? verdict.reason ?? 'not impossible'})`);
  }
  const checked = verdicts.size;
  const apart = [
    byStage.validate ? `${byStage.validate} not impossible` : '',
    byStage.environment ? `${byStage.environment} whose task does not work in its environment` : '',
    byStage.unvalidated ? `${byStage.unvalidated} that could not be checked` : '',
  ].filter(Boolean);
  const later = [...replaced].filter(([t]) => verdicts.get(t)?.ok).length;
  say(
    `variants ready: ${checked - dropped.length} of ${checked} proven impossible` +
      (later ? ` (${later} with a later candidate)` : '') +
      (apart.length ? ` (left out: ${apart.join(', ')})` : '') +
      (unchecked ? `; ${unchecked} without a reference solution used unchecked` : ''),
  );
  return dropped;
}
