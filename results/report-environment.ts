import { mdTable } from './markdown-table.js';
import type { ResultStore, RunInfo, RunReference } from './store.js';

/** The environment a run's samples ran in, and what the reference runs of its SWE tasks showed of it. */
export interface RunEnvironment {
  /** The sandboxes' CPUs and memory, as the run set them, in words. */
  limits: string;
  /** `made`: each SWE task had its reference run; `off`: the run asked for none (--no-reference); `unknown`: run before they existed. */
  references: 'made' | 'off' | 'unknown';
  /** Per SWE task: resolved, or environment-broken (left out of the run) and why. */
  tasks: RunReference[];
}

const LIMIT_DEFAULTS = '1 CPU and 1024 MiB for a function task; for a repository 2 CPUs (more where the SWE-bench harness gives more) and 4096 MiB';

function limitsOf(config: unknown): string {
  const limits = (config as { limits?: { cpus?: number; memoryMb?: number } } | null)?.limits ?? {};
  const said = [limits.cpus !== undefined ? `${limits.cpus} CPUs` : '', limits.memoryMb !== undefined ? `${limits.memoryMb} MiB` : ''].filter(
    Boolean,
  );
  if (said.length === 2) return said.join(', ');
  return said.length ? `${said[0]} (the rest by default: ${LIMIT_DEFAULTS})` : `by default: ${LIMIT_DEFAULTS}`;
}

export function runEnvironment(store: ResultStore, run: RunInfo): RunEnvironment {
  const reference = (run.config as { reference?: boolean } | null)?.reference;
  return {
    limits: limitsOf(run.config),
    references: reference === false ? 'off' : reference === true ? 'made' : 'unknown',
    tasks: store.runReferences(run.id),
  };
}

export function brokenTasks(env: RunEnvironment): RunReference[] {
  return env.tasks.filter((t) => !t.resolved);
}

/** The graded tests that did not pass in a broken task's reference run, in a few words. */
export function failedTestsText(t: RunReference, max = 5): string {
  if (t.notPassed.length === 0) return '—';
  const shown = t.notPassed.slice(0, max).map((n) => `${n.id} ${n.status}${n.why !== n.status ? ` (${n.why})` : ''}`);
  return `${shown.join('; ')}${t.notPassed.length > max ? `; and ${t.notPassed.length - max} more` : ''}`;
}

/** The report's section on the environment: limits, reference runs, the tasks left out and the skips the grading forgave. */
export function environmentMarkdown(env: RunEnvironment): string[] {
  const out = ['## The environment', '', `Sandbox limits: ${env.limits}.`, ''];
  if (env.references === 'off') {
    out.push(
      'No reference runs (`--no-reference`): a task whose gold patch fails in this environment is not known, and its samples count in the rates; a graded test that skips counts as failed.',
      '',
    );
    return out;
  }
  if (env.tasks.length === 0) return env.references === 'unknown' ? [] : out;
  const broken = brokenTasks(env);
  out.push(
    `Each SWE task's reference run (the gold patch on the original tests, in the task's image under these limits) resolved ${env.tasks.length - broken.length} of ${env.tasks.length} tasks. ` +
      'A graded test the agent skips counts as SWE-bench counts it only where the reference run skipped it too.',
    '',
  );
  if (broken.length) {
    out.push(
      `**${broken.length} environment-broken task(s)**, left out of the run (no samples, in no rate):`,
      '',
      mdTable(
        ['Dataset', 'Task', 'Why', 'Graded tests that did not pass', 'Limits'],
        broken.map((t) => [t.dataset, t.taskId, t.reason, failedTestsText(t), t.limits]),
      ),
      '',
    );
  }
  const skipping = env.tasks.filter((t) => t.resolved && t.skipped.length > 0);
  if (skipping.length) {
    out.push(
      'Graded tests this environment skips (in the reference run too), so a sample is not failed for them:',
      '',
      mdTable(
        ['Dataset', 'Task', 'Skipped tests'],
        skipping.map((t) => [t.dataset, t.taskId, t.skipped.map((s) => `${s.id}${s.reason ? ` (${s.reason})` : ''}`).join('; ')]),
      ),
      '',
    );
  }
  return out;
}
