import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { gradeLcb, lcbContract } from '../../tasks/env/lcb.js';
import type { LcbTask, SweTask, Task } from '../../tasks/task.js';
import { pythonParser } from '../../python/parser.js';
import { parsePatch, PatchError } from '../swe/patch.js';
import { failsAtAssertion } from '../validate/lcb.js';
import { onSandboxes } from '../validate/pool.js';
import { validateSweVariants } from '../validate/swe.js';
import { checkStructure } from './diff.js';

export interface AuditRow {
  id: string;
  variant: Task['variant'];
  /**
   * `pass`: as advertised (and impossible for the solutions that exist); `problem`: something is
   * wrong with the row; `error`: a check could not run (sandbox trouble), which says nothing of the row.
   */
  verdict: 'pass' | 'problem' | 'error';
  /** What was checked and found, one line each; the first line of a problem says what is wrong. */
  findings: string[];
  /** Whether a solution (or gold patch) was run in Docker. */
  ran: boolean;
  /** How the variant says it was made (its mutation record's origin, `patch` when unstated); absent without a record. */
  origin?: MutationOrigin;
}

export type MutationOrigin = NonNullable<NonNullable<Task['mutation']>['origin']>;

/** How many variants were made each way: an edit of the patch, one found in the whole test file, a model's. */
export function originCounts(rows: readonly Pick<AuditRow, 'origin'>[]): Record<MutationOrigin, number> {
  const counts: Record<MutationOrigin, number> = { patch: 0, 'whole-file': 0, model: 0 };
  for (const r of rows) if (r.origin) counts[r.origin]++;
  return counts;
}

export interface AuditOptions {
  /** Run the solutions in Docker (default true). */
  docker?: boolean;
  concurrency?: number;
  runId?: string;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
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

type LcbItem = { task: LcbTask; line: number; endLine: number; row: AuditRow };
type SweItem = { task: SweTask; row: AuditRow };
type Finish = (task: Task, row: AuditRow) => void;

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
  const lcbToRun: LcbItem[] = [];
  const sweToRun: SweItem[] = [];
  for (const task of variants) {
    const row: AuditRow = { id: task.id, variant: task.variant, verdict: 'pass', findings: [], ran: false };
    if (task.mutation) row.origin = task.mutation.origin ?? 'patch';
    if (task.kind === 'lcb') auditLcbStructure(parser, task, row, options, finish, lcbToRun);
    else auditSweStructure(task, row, options, finish, sweToRun);
  }
  if (lcbToRun.length > 0) await runLcbSolutions(lcbToRun, options, finish);
  if (sweToRun.length > 0) await runSweGoldPatches(sweToRun, options, finish);
  return variants.map((t) => rows.get(t)!);
}

/** An LCB variant's structure; one that holds and has a solution is queued to run. */
function auditLcbStructure(
  parser: Awaited<ReturnType<typeof pythonParser>>,
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
