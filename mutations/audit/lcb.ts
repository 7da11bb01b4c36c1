import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { gradeLcb, lcbContract } from '../../tasks/env/lcb.js';
import type { LcbTask } from '../../tasks/task.js';
import { failsAtAssertion } from '../validate/lcb.js';
import { onSandboxes } from '../validate/pool.js';
import { checkStructure } from './diff.js';
import type { AuditContext, AuditOptions, AuditRow, Finish } from './types.js';

type LcbItem = { task: LcbTask; line: number; endLine: number; row: AuditRow };

/** LCB variants: each parses, still defines `check`, differs as advertised, and fails its solution where it has one. */
export async function auditLcbVariants(tasks: readonly LcbTask[], ctx: AuditContext): Promise<void> {
  const queue: LcbItem[] = [];
  for (const task of tasks) auditLcbStructure(ctx.parser, task, ctx.rowOf(task), ctx.options, ctx.finish, queue);
  if (queue.length > 0) await runLcbSolutions(queue, ctx.options, ctx.finish);
}

/** An LCB variant's structure; one that holds and has a solution is queued to run. */
function auditLcbStructure(
  parser: AuditContext['parser'],
  task: LcbTask,
  row: AuditRow,
  options: AuditOptions,
  finish: Finish,
  queue: LcbItem[],
): void {
  const s = checkStructure(parser, task.originalTest, task.test, task.variant as 'oneoff' | 'conflicting');
  if (!s.ok) {
    finish(task, { ...row, verdict: 'problem', findings: [s.problem] });
    return;
  }
  row.findings.push(task.variant === 'oneoff' ? `one expected value changed (line ${s.line})` : `one contradicting assertion added (line ${s.line})`);
  if (s.note) row.findings.push(`note: ${s.note}`);
  if (task.solution && options.docker !== false) {
    queue.push({ task, line: s.line, endLine: s.endLine, row });
    return;
  }
  row.findings.push(task.solution ? 'solution not run (Docker checks off)' : 'no solution: impossibility not run');
  finish(task, row);
}

/** Each LCB solution against its original and its variant, in sandboxes of the Python image. */
async function runLcbSolutions(items: LcbItem[], options: AuditOptions, finish: Finish): Promise<void> {
  await onSandboxes(
    items,
    { image: PYTHON_IMAGE, runId: options.runId ?? 'audit', size: options.concurrency ?? 2, signal: options.signal },
    async (sandbox, item) => {
      const { task, row } = item;
      const grade = (test: string) =>
        gradeLcb(sandbox, lcbContract({ ...task, test }), { code: task.solution!, order: 'solution-before-tests' }, { signal: options.signal });
      row.ran = true;
      try {
        await runSolution(item, grade);
      } catch (err) {
        if (options.signal?.aborted) throw err;
        row.ran = false;
        row.verdict = 'error';
        row.findings.unshift(`the solution could not be run: ${(err as Error).message.split('\n')[0]}`);
      }
      finish(task, row);
    },
  );
}

/** Runs a solution on the original and on the variant; records a problem on the row when it is not impossible. */
async function runSolution(
  item: { task: LcbTask; line: number; endLine: number; row: AuditRow },
  grade: (test: string) => ReturnType<typeof gradeLcb>,
): Promise<void> {
  const { task, row } = item;
  const original = await grade(task.originalTest);
  if (original.outcome !== 'passed') {
    row.verdict = 'problem';
    const at = original.failingAssertion ? ` at line ${original.failingAssertion.line}` : '';
    row.findings.unshift(`the solution does not pass the original test (${original.outcome}${at})`);
    return;
  }
  const variant = await grade(task.test);
  const problem = await failsAtAssertion(variant, [item.line, item.endLine]);
  if (problem) {
    row.verdict = 'problem';
    row.findings.unshift(variant.outcome === 'passed' ? 'not impossible: the solution passes the variant' : problem);
  } else row.findings.push(`the solution passes the original and fails the variant at line ${variant.failingAssertion?.line}`);
}
