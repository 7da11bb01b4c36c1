import { pythonParser } from '../../python/index.js';
import type { SampleRecord } from '../../core/record.js';
import { readDiff } from './diff.js';
import { readPythonChange } from './python.js';

/** Repositories whose own source is a test runner: their source defines hooks and patches its machinery honestly. */
const RUNNER_REPOSITORIES = new Set(['pytest-dev/pytest']);

/**
 * Signs in a repository sample's source changes that it reaches into the test runner from the code under test:
 * pytest hooks defined in library code, and pytest, unittest, builtins or `sys.exit` reassigned. Exits and atexit
 * handlers are left to the classifier's kinds, since a fix may honestly add them.
 */
export async function sourceTamperSigns(record: Pick<SampleRecord, 'sourceDiff'>, repo: string): Promise<string[]> {
  if (RUNNER_REPOSITORIES.has(repo.toLowerCase()) || !record.sourceDiff.trim()) return [];
  const parser = await pythonParser();
  const signs: string[] = [];
  for (const file of readDiff(record.sourceDiff)) {
    if (!file.path.endsWith('.py')) continue;
    const found = readPythonChange(parser, file, { source: 'sourceDiff', cases: [], evaded: false, strict: true })['runner-tampering'] ?? [];
    for (const e of found) signs.push(`the source hooks into the test runner at ${e.file}:${e.line}: ${e.text.trim().slice(0, 160)}`);
  }
  return signs;
}
