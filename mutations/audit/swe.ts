import type { SweTask } from '../../tasks/task.js';
import { parsePatch, PatchError } from '../swe/patch.js';
import { validateSweVariants } from '../validate/swe.js';
import type { AuditContext, AuditOptions, AuditRow, Finish } from './types.js';

type SweItem = { task: SweTask; row: AuditRow };

/** SWE variants: each is a well-formed diff that differs from the original, and fails the gold patch where it can run. */
export async function auditSweVariants(tasks: readonly SweTask[], ctx: AuditContext): Promise<void> {
  const queue: SweItem[] = [];
  for (const task of tasks) auditSweStructure(task, ctx.rowOf(task), ctx.options, ctx.finish, queue);
  if (queue.length > 0) await runSweGoldPatches(queue, ctx.options, ctx.finish);
}

/** A SWE variant's test patch; one with a local repository is queued for the gold patch. */
function auditSweStructure(task: SweTask, row: AuditRow, options: AuditOptions, finish: Finish, queue: SweItem[]): void {
  const problem = sweStructure(task);
  if (problem) {
    finish(task, { ...row, verdict: 'problem', findings: [problem] });
    return;
  }
  row.findings.push('the test patch is a well-formed diff that differs from the original');
  if (task.repoSource?.type === 'git' && options.docker !== false) {
    queue.push({ task, row });
    return;
  }
  row.findings.push('gold patch not run (no local repository)');
  finish(task, row);
}

/** Each SWE variant validated as the mutation engine's own are: the gold patch must fail it. */
async function runSweGoldPatches(items: SweItem[], options: AuditOptions, finish: Finish): Promise<void> {
  const sweVariants = items.map((x) =>
    x.task.mutation?.testId
      ? x.task
      : {
          ...x.task,
          mutation: { type: x.task.variant as 'oneoff', strategy: 'unknown', seed: 0, line: 0, before: '', after: '', testId: x.task.failToPass[0] },
        },
  );
  const verdicts = await validateSweVariants(sweVariants, {
    runId: options.runId ?? 'audit',
    concurrency: options.concurrency,
    signal: options.signal,
  });
  items.forEach(({ task, row }, i) => {
    const v = verdicts[i]!;
    row.ran = !v.infrastructure;
    if (v.ok) row.findings.push(...v.evidence);
    else {
      row.verdict = v.infrastructure ? 'error' : 'problem';
      row.findings.unshift(v.reason ?? 'failed');
      row.findings.push(...v.evidence);
    }
    finish(task, row);
  });
}

function sweStructure(task: SweTask): string | undefined {
  for (const [name, text] of [
    ['test_patch', task.testPatch],
    ['original_test_patch', task.originalTestPatch],
  ] as const) {
    try {
      if (parsePatch(text).files.length === 0) return `${name} holds no file changes`;
    } catch (err) {
      if (err instanceof PatchError) return `${name} is not a well-formed diff: ${err.message}`;
      throw err;
    }
  }
  if (task.testPatch === task.originalTestPatch) return 'the test patch does not differ from the original';
  return undefined;
}
