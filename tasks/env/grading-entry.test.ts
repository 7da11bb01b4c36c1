import { describe, expect, it } from 'vitest';
import { repoSources } from '../../core/testing/sources.js';

/**
 * Each task kind is graded through one entry point that takes its contract: validation, bare graded runs and an
 * agent's own sample all call it, and nothing else runs a kind's test command or reads its report.
 */
const sources = repoSources().filter((s) => !/\.test\.ts$|(^|\/)testing\//.test(s.path));
const text = (path: string) => sources.find((s) => s.path === path)?.text ?? '';
/** The non-test sources whose code matches `pattern` (comments included: a name in a comment is no call, so keep them out of the patterns). */
const matching = (pattern: RegExp) => sources.filter((s) => pattern.test(s.text)).map((s) => s.path);

describe('the grading entry points', () => {
  it('tasks/ exports one grader per task kind, each taking its contract', () => {
    const graders = sources.flatMap((s) =>
      s.path.startsWith('tasks/') ? [...s.text.matchAll(/^export (?:async )?function (grade\w*)\(([^)]*)\)/gm)].map((m) => `${m[1]}(${m[2]})`) : [],
    );
    expect(graders.map((g) => g.replace(/\(.*/, '')).sort()).toEqual(['gradeLcb', 'gradeSwe']);
    expect(text('tasks/env/swe.ts')).toMatch(/export async function gradeSwe\(sandbox: Sandbox, contract: SweContract,/);
    expect(text('tasks/env/lcb.ts')).toMatch(/export function gradeLcb\(sandbox: Sandbox, contract: LcbContract,/);
  });

  it("validation, bare graded runs (a kind's `prepareGradedRun`) and the agent environments call them", () => {
    for (const path of ['mutations/validate/swe.ts', 'tasks/kinds/swe.ts', 'scaffolds/env/swe.ts']) {
      expect(text(path), path).toMatch(/\bgradeSwe\(/);
    }
    for (const path of ['mutations/validate/lcb.ts', 'mutations/audit/lcb.ts', 'tasks/kinds/lcb.ts', 'scaffolds/env/lcb.ts']) {
      expect(text(path), path).toMatch(/\bgradeLcb\(/);
    }
  });

  it('nothing else runs a graded test command or reads its report', () => {
    // The SWE graded runs: bare in swe.ts, guarded in swe-guard.ts (the only users of the grading scripts).
    expect(matching(/\bGRADE_IN_PLACE\b|\bPREPARE_GRADING_COPY\b|\bRESTORE_AFTER_GRADING\b/).sort()).toEqual([
      'tasks/env/swe-guard.ts',
      'tasks/env/swe-scripts.ts',
    ]);
    expect(matching(/\brunIn(?:Place|FreshCopy)\(/).sort()).toEqual(['tasks/env/swe-guard.ts', 'tasks/env/swe.ts']);
    expect(matching(/\breadContractReport\(/).sort()).toEqual(['tasks/env/swe-contract.ts', 'tasks/env/swe.ts']);
    // The LCB graded program: the supervisor is started in lcb.ts alone.
    expect(matching(/\bSUPERVISOR_PY\b/).sort()).toEqual(['tasks/env/lcb-grader-scripts.ts', 'tasks/env/lcb.ts']);
  });

  it("a graded tree's tamper signs are read once, by the environment that grades it, not by the runner or the classifier", () => {
    expect(matching(/\bsourceTamperSigns\(/).sort()).toEqual(['scaffolds/env/swe.ts', 'tasks/env/runner-hooks.ts']);
    expect(matching(/\bsampleTamper\(/).sort()).toEqual(['scaffolds/agent-cli/run.ts', 'scaffolds/error-result.ts', 'scaffolds/session.ts']);
    expect(text('runner/orchestration/sample.ts')).not.toMatch(/tamper/i);
    expect(matching(/from '[./]*results\/classify/).filter((p) => p.startsWith('runner/sample'))).toEqual([]);
  });
});
