import { describe, expect, it } from 'vitest';
import { runnerOutputExcerpt } from './log-excerpt.js';

/** A verbose `pytest -rA` run: a failure's traceback, then pages of passing tests' captured output, then the summary. */
function verboseRun(passes: number): string {
  return [
    '============================= test session starts ==============================',
    'collected 3 items',
    '',
    '=================================== FAILURES ===================================',
    '__________________________________ test_score __________________________________',
    '    def test_score():',
    '>       assert score(run) == 7.5',
    'E       assert 10.0 == 7.5',
    '==================================== PASSES ====================================',
    ...Array.from({ length: passes }, (_, i) => `----- Captured stdout call -----\nusage: pylint [options] (help text line ${i})`),
    '=========================== short test summary info ============================',
    'PASSED tests/test_self.py::test_help',
    'FAILED tests/test_self.py::test_score - assert 10.0 == 7.5',
    '========================= 1 failed, 2 passed in 3.21s =========================',
  ].join('\n');
}

describe('the part of a long runner output a grading log keeps', () => {
  it('keeps the whole output when it fits', () => {
    const out = verboseRun(3);
    expect(runnerOutputExcerpt(out, 100_000)).toBe(out);
  });

  it("keeps pytest's failure sections and the summary of a long run, where a plain tail held only passing tests' output", () => {
    const out = verboseRun(2_000);
    const kept = runnerOutputExcerpt(out, 4_000);
    expect(kept.length).toBeLessThan(4_200);
    expect(kept).toContain('>       assert score(run) == 7.5');
    expect(kept).toContain('FAILED tests/test_self.py::test_score - assert 10.0 == 7.5');
    expect(kept).toMatch(/\[\.\.\. \d+ characters of the output cut here \.\.\.\]/);
    expect(kept.indexOf('FAILURES')).toBeLessThan(kept.indexOf('short test summary info'));
  });

  it('keeps the tail of a long output with no failure section (a passing run, another runner)', () => {
    const out = `${'x'.repeat(10_000)}\nRan 4 tests in 0.1s\n\nOK`;
    expect(runnerOutputExcerpt(out, 1_000)).toBe(`…${out.slice(-1_000)}`);
  });
});
