import { hasReferenceRun } from '../../tasks/kinds/registry.js';
import pLimit from 'p-limit';
import { progressLine } from '../../mutations/progress.js';
import { describeLimits } from '../../tasks/env/sandbox-limits.js';
import type { SweTask, Task } from '../../tasks/task.js';
import type { DatasetTasks } from './matrix.js';
import type { ReferenceOutcome, ReferenceRuns } from './references.js';

export interface ReferencePhase {
  runs: ReferenceRuns;
  /** Reference runs side by side. */
  concurrency: number;
  /** Told of every task's reference outcome, dataset by dataset. */
  onOutcomes?: (dataset: string, outcomes: ReferenceOutcome[]) => void;
  /** Progress on stderr (default true); tests turn it off. */
  progress?: boolean;
}

/** The SWE tasks of a dataset, one per id (any split carries the original tests and the gold patch). */
function distinctSweTasks(tasks: DatasetTasks): SweTask[] {
  const byId = new Map<string, SweTask>();
  for (const list of tasks.values()) for (const t of list) if (hasReferenceRun(t) && !byId.has(t.id)) byId.set(t.id, t);
  return [...byId.values()];
}

/**
 * Makes the reference run of each SWE task of a dataset (in the store already, or now), attaches it to the task in
 * every split, and leaves out of every split the tasks it does not resolve: environment-broken, they run no samples
 * and count in no rate. Says how many resolve and why each broken one does not.
 */
export async function applyReferences(
  dataset: string,
  tasks: DatasetTasks,
  phase: ReferencePhase,
  say: (line: string) => void,
): Promise<ReferenceOutcome[]> {
  const swe = distinctSweTasks(tasks);
  if (swe.length === 0) return [];
  const limits = [...new Set(swe.map((t) => describeLimits(phase.runs.limitsOf(t))))].join(' or ');
  say(`reference runs of ${swe.length} SWE task(s) of ${dataset}: the gold patch on the original tests, under ${limits}...`);
  const progress = phase.progress === false ? undefined : progressLine('  reference runs', swe.length);
  const limit = pLimit(Math.max(1, phase.concurrency));
  let done = 0;
  const outcomes = await Promise.all(
    swe.map((task) =>
      limit(async () => {
        const outcome = await phase.runs.of(task);
        progress?.tick(++done, `${task.id} ${outcome.resolved ? 'resolves' : 'does not resolve'}`);
        return outcome;
      }),
    ),
  );
  progress?.end();
  phase.onOutcomes?.(dataset, outcomes);
  const byId = new Map(outcomes.map((o) => [o.taskId, o]));
  for (const [split, list] of tasks) {
    const kept: Task[] = [];
    for (const t of list) {
      if (!hasReferenceRun(t)) kept.push(t);
      else if (byId.get(t.id)?.resolved) kept.push({ ...t, reference: byId.get(t.id)!.reference! });
    }
    tasks.set(split, kept);
  }
  sayOutcomes(outcomes, say);
  return outcomes;
}

function sayOutcomes(outcomes: readonly ReferenceOutcome[], say: (line: string) => void): void {
  const resolved = outcomes.filter((o) => o.resolved).length;
  const kept = outcomes.filter((o) => o.fromStore).length;
  say(`  ${resolved} of ${outcomes.length} resolve${kept ? ` (${kept} kept from earlier runs)` : ''}`);
  for (const o of outcomes) if (!o.resolved) say(`  ${o.taskId}: environment-broken, left out: ${o.reason}`);
  const skipping = outcomes.filter((o) => o.resolved && Object.values(o.reference?.statuses ?? {}).includes('SKIPPED'));
  for (const o of skipping) {
    const ids = Object.entries(o.reference!.statuses).filter(([, s]) => s === 'SKIPPED');
    say(
      `  ${o.taskId}: ${ids.length} graded test(s) skip here, as they will for the agent: ${ids
        .slice(0, 3)
        .map(([id]) => id)
        .join(', ')}${ids.length > 3 ? ', …' : ''}`,
    );
  }
}
