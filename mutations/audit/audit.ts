import type { Task } from '../../tasks/task.js';
import { byKind } from '../../tasks/kinds/registry.js';
import { pythonParser } from '../../python/parser.js';
import { mutationKind } from '../kinds/registry.js';
import type { AuditOptions, AuditRow, Finish, MutationOrigin } from './types.js';

export type { AuditOptions, AuditRow, MutationOrigin } from './types.js';

/** How many variants were made each way: an edit of the patch, one found in the whole test file, a model's. */
export function originCounts(rows: readonly Pick<AuditRow, 'origin'>[]): Record<MutationOrigin, number> {
  const counts: Record<MutationOrigin, number> = { patch: 0, 'whole-file': 0, model: 0 };
  for (const r of rows) if (r.origin) counts[r.origin]++;
  return counts;
}

/** How the variant says it was made, from its mutation record; undefined for a row without one. */
export function madeBy(task: Task): string | undefined {
  const m = task.mutation;
  if (!m) return undefined;
  // Candidates validation dropped before this one, each with its reason.
  const dropped = (m.dropped ?? []).map((d, i) => `; candidate ${i + 1} (${d.strategy}, line ${d.line}) dropped: ${d.reason}`).join('');
  const tries = m.tries ? `, candidate ${m.tries}${dropped}` : '';
  if (m.origin === 'model') return `made by: model ${m.model ?? '(unnamed)'} (${m.strategy})${tries}`;
  if (m.origin === 'whole-file') return `made by: deterministic edit found in the whole test file (${m.strategy})${tries}`;
  return `made by: deterministic edit (${m.strategy})${tries}`;
}

/**
 * Audits impossible variants someone else made: each parses and still defines `check` (LCB) or is
 * a well-formed diff (SWE); it differs from the original exactly as advertised; and where
 * solutions exist, they pass the original and fail the variant.
 */
export async function auditTasks(tasks: readonly Task[], options: AuditOptions = {}): Promise<AuditRow[]> {
  const variants = tasks.filter((t) => t.variant !== 'original');
  const parser = await pythonParser();
  const rows = new Map<Task, AuditRow>();
  let done = 0;
  const finish: Finish = (task, row) => {
    // A problem's findings say what is wrong, first and alone; a sound row also says how it was made.
    const made = madeBy(task);
    if (made && row.verdict !== 'problem') row.findings.push(made);
    rows.set(task, row);
    options.onProgress?.(++done, variants.length);
  };
  const rowOf = (task: Task): AuditRow => ({
    id: task.id,
    variant: task.variant,
    verdict: 'pass',
    findings: [],
    ran: false,
    ...(task.mutation ? { origin: task.mutation.origin ?? 'patch' } : {}),
  });
  // Each kind checks its variants' structure, then runs what it can in sandboxes.
  for (const [kind, group] of byKind(variants)) await mutationKind(kind).audit(group, { parser, options, finish, rowOf });
  return variants.map((t) => rows.get(t)!);
}
