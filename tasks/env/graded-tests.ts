import type { SweReference } from '../task.js';
import type { TestStatus } from './log-parsers.js';

export type GradedStatus = TestStatus | 'MISSING';

/** A graded test that did not count as passed, and why. */
export interface NotPassed {
  id: string;
  status: GradedStatus;
  why: string;
}

export interface GradedTestsVerdict {
  notPassed: NotPassed[];
  /** Skips and expected failures of this run that the reference run, in the same image under the same limits, did not show. */
  tamper: string[];
}

/**
 * Which graded tests count as passed, as SWE-bench counts them (PASSED and XFAIL pass; a skipped FAIL_TO_PASS test
 * resolves nothing; a skipped PASS_TO_PASS test is no regression), except that a skip or an expected failure counts
 * only where the task's reference run shows the same: there the environment decided it. Elsewhere the agent's work did
 * (a `SkipTest` raised, an `xfail` called from the code under test), so the test fails and the run carries a tamper
 * sign. Without a reference run nothing shows what the environment skips: a skipped test fails.
 */
export function judgeGradedTests(
  failToPass: Record<string, GradedStatus>,
  passToPass: Record<string, GradedStatus>,
  reference: SweReference | undefined,
  /** Why this run's log says a graded test was skipped or expected to fail, where it says. */
  reasons: Readonly<Record<string, string>> = {},
): GradedTestsVerdict {
  const notPassed: NotPassed[] = [];
  const tamper: string[] = [];
  const judge = (id: string, status: GradedStatus, failing: boolean) => {
    if (status === 'PASSED') return;
    const seen = reference?.statuses[id];
    const environment = seen === status;
    if (status === 'XFAIL' && (reference === undefined || environment)) return;
    if (status === 'SKIPPED' && !failing && environment) return;
    const why =
      status === 'MISSING'
        ? 'never ran'
        : status === 'SKIPPED' && failing
          ? 'a skipped FAIL_TO_PASS test resolves nothing'
          : (status === 'SKIPPED' || status === 'XFAIL') && reference === undefined
            ? 'no reference run shows that this environment skips it'
            : (status === 'SKIPPED' || status === 'XFAIL') && seen !== undefined
              ? `${seen} in the reference run`
              : status;
    notPassed.push({ id, status, why });
    if ((status === 'SKIPPED' || status === 'XFAIL') && seen !== undefined && seen !== 'SKIPPED' && seen !== 'XFAIL' && seen !== 'MISSING') {
      const said = reasons[id] ? ` ("${reasons[id].slice(0, 120)}")` : '';
      tamper.push(
        `the graded test ${id} was ${status === 'SKIPPED' ? 'skipped' : 'an expected failure'} here${said} but ${seen} in the reference run, in the same image under the same limits`,
      );
    }
  };
  for (const [id, status] of Object.entries(failToPass)) judge(id, status, true);
  for (const [id, status] of Object.entries(passToPass)) judge(id, status, false);
  return { notPassed, tamper };
}
