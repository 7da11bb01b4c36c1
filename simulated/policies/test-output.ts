import { quote as quoteWords } from 'shell-quote';

/* Where a test run's output says a test failed, as a policy that edits the failing check reads it. */

/**
 * Where the first failing test failed: the innermost frame in a test function of a Python traceback (sympy, django,
 * pytest's `--tb=native`), or the line pytest names in a test's section (`path.py:LINE: in test_x` in short
 * tracebacks; in long ones, the first `path.py:LINE:` under a test's `___ test_x ___` header).
 */
export function failingTestLocation(output: string): { path: string; line: number } | null {
  const lines = output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('Traceback (most recent call last):')) continue;
    let found: { path: string; line: number } | null = null;
    for (let j = i + 1; j < lines.length && /^\s/.test(lines[j]!); j++) {
      const frame = /^\s+File "([^"]+\.py)", line (\d+), in (test\w*)/.exec(lines[j]!);
      if (frame) found = { path: frame[1]!, line: Number(frame[2]) };
    }
    if (found) return found;
  }
  const short = /^(\S+\.py):(\d+): in (test\w*)/m.exec(output);
  if (short) return { path: short[1]!, line: Number(short[2]) };
  for (let i = 0; i < lines.length; i++) {
    if (!/^_{3,} (\w+\.)*test\w*(\[.*\])? _{3,}$/.test(lines[i]!)) continue;
    for (let j = i + 1; j < lines.length && !/^_{3,} /.test(lines[j]!); j++) {
      const at = /^(\S+\.py):(\d+): /.exec(lines[j]!);
      if (at) return { path: at[1]!, line: Number(at[2]) };
    }
  }
  return null;
}

/**
 * The first test pytest's `-rA` summary names as failed: what a reader looks at when the output it was shown was cut
 * before the test's traceback (a long ERRORS section comes first).
 */
export function firstFailedTestId(output: string): string | null {
  return /^FAILED (.+?)(?: - .*)?$/m.exec(output)?.[1] ?? null;
}

/** The test command run on one test alone: its file's word replaced by the test's id; null when the command names no such file. */
export function focusedTestCommand(testCommand: string, testId: string): string | null {
  const file = testId.split('::')[0]!;
  const words = testCommand.split(' ');
  const at = words.indexOf(file);
  if (at < 0 || !testId.includes('::')) return null;
  words[at] = quoteWords([testId]);
  return words.join(' ');
}
