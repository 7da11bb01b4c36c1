import { djangoIdForms } from './django-log.js';
import { isTruncatedId } from './pytest-lines.js';
import { isPassing, worst, type TestStatus } from './runner-log.js';

/**
 * Looks a graded test id up in a log's statuses, trying the other forms a runner may print it in. An id cut inside
 * its parameters (the published ids of parametrized tests are cut at their first space, and 676 of SWE-bench
 * Verified's mid-parameter) names every test whose id it begins, as in SWE-bench: it passes when all of them passed
 * (an expected failure among them makes it one), else it takes the worst status among them.
 */
export function statusOf(statuses: ReadonlyMap<string, TestStatus>, id: string): TestStatus | undefined {
  for (const form of djangoIdForms(id)) {
    const status = statuses.get(form);
    if (status) return status;
  }
  if (!isTruncatedId(id)) return undefined;
  const named = [...statuses].filter(([key]) => key.startsWith(id)).map(([, status]) => status);
  if (named.length === 0) return undefined;
  if (named.every(isPassing)) return named.includes('XFAIL') ? 'XFAIL' : 'PASSED';
  return worst(named.filter((s) => !isPassing(s)));
}

/** The reason a log gives for a graded test's skip or expected failure, in any form of its id. */
export function reasonOf(reasons: ReadonlyMap<string, string>, id: string): string | undefined {
  for (const form of djangoIdForms(id)) {
    const reason = reasons.get(form);
    if (reason) return reason;
  }
  return undefined;
}
