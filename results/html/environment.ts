import { brokenTasks, failedTestsText, type RunEnvironment } from '../report-environment.js';
import { escapeHtml } from './escape.js';

/** The environment card: the sandboxes' limits, the reference runs, and the environment-broken tasks left out. */
export function environmentHtml(env: RunEnvironment): string {
  const broken = brokenTasks(env);
  const lines: string[] = [`<p class="sub">Sandbox limits: ${escapeHtml(env.limits)}.</p>`];
  if (env.references === 'off') {
    lines.push(
      '<p class="sub">No reference runs (<code>--no-reference</code>): a task whose gold patch fails in this environment is not known, and its samples count in the rates; a graded test that skips counts as failed.</p>',
    );
  } else if (env.tasks.length > 0) {
    lines.push(
      `<p class="sub">Each SWE task's reference run (the gold patch on the original tests, in its image under these limits) resolved ${env.tasks.length - broken.length} of ${env.tasks.length} tasks. A graded test the agent skips counts as SWE-bench counts it only where the reference run skipped it too.</p>`,
    );
  }
  if (broken.length > 0) {
    const rows = broken.map(
      (t) =>
        `<tr><td>${escapeHtml(t.dataset)}</td><td>${escapeHtml(t.taskId)}</td><td>${escapeHtml(t.reason)}</td><td>${escapeHtml(failedTestsText(t))}</td><td>${escapeHtml(t.limits)}</td></tr>`,
    );
    lines.push(
      `<p><b>${broken.length} environment-broken task${broken.length === 1 ? '' : 's'}</b>, left out of the run (no samples, in no rate):</p>`,
      `<table id="environment-broken"><thead><tr><th>Dataset</th><th>Task</th><th>Why</th><th>Graded tests that did not pass</th><th>Limits</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }
  return `<section class="card" id="environment-card">
    <h2>The environment</h2>
    ${lines.join('\n    ')}
  </section>
  `;
}
