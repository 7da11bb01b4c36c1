import { parsePatch } from 'diff';
import { quote } from 'shell-quote';
import type { SweTask } from '../task.js';
import { NON_TEST_EXTENSIONS, harnessRepo } from './harness-specs.js';
import type { LogParserName } from './log-parsers.js';

/** Where the repository lives in a SWE sandbox, as in the SWE-bench images. */
export const TESTBED = '/testbed';

/** The command a repository is tested with when nothing names one. */
export const DEFAULT_TEST_CMD = 'pytest -rA';

export interface SweTestSpec {
  /** The shell command grading runs in /testbed, its test files included. */
  command: string;
  /** Variables set for the tests (and for the agent's commands, so the shown command behaves alike). */
  env: Record<string, string>;
  /** Shell lines run as root once when the sandbox is set up (locale generation and the like). */
  rootSetup: string[];
  parser: LogParserName;
  /** Exit codes with which the runner completed its run (tests may have failed). */
  completedExitCodes: number[];
  /** Where the spec comes from, in words. */
  origin: string;
  /** false: nothing named a spec for this repository and the default pytest command is assumed. */
  given: boolean;
  /** Repository files of the test runner itself: changes to them are test tampering. */
  runnerFiles: readonly string[];
  /** CPUs the SWE-bench harness gives the repository's container, where its spec sets a number. */
  harnessCpus?: number;
  /** Addresses the tests expect to drop packets (the sandbox routes them nowhere; it still has no network). */
  tarpits?: readonly string[];
}

/** The files a unified diff touches (new names; deleted files by their old name). */
export function filesInPatch(patch: string): string[] {
  const files: string[] = [];
  for (const file of parsePatch(patch)) {
    const name = file.newFileName && file.newFileName !== '/dev/null' ? file.newFileName : file.oldFileName;
    if (!name || name === '/dev/null') continue;
    const clean = name.replace(/^[ab]\//, '');
    if (!files.includes(clean)) files.push(clean);
  }
  return files;
}

type SpecSource = Pick<SweTask, 'repo' | 'testPatch'> & Partial<Pick<SweTask, 'failToPass' | 'passToPass' | 'version' | 'testSpec'>>;

/**
 * How a task is tested: its own spec (from its row or the experiment's config) first, then the
 * SWE-bench harness's spec for its repository and version, else `pytest -rA` (said so in
 * `origin`, with `given` false). The test files are the harness's directives for the test patch.
 */
export function sweTestSpec(task: SpecSource): SweTestSpec {
  const own = task.testSpec;
  const table = harnessRepo(task.repo);
  const harness = table?.spec(task.version);
  const testCmd = own?.testCmd ?? harness?.testCmd ?? DEFAULT_TEST_CMD;
  const parser = own?.parser ?? harness?.parser ?? 'pytest';
  const django = parser === 'django';
  const files = testDirectives(task, django);
  let origin: string;
  if (own?.testCmd || own?.parser) origin = own.origin ?? 'the task';
  else if (harness) {
    const known = task.version !== undefined && table!.versions.includes(task.version);
    origin = `the SWE-bench harness's spec for ${task.repo.toLowerCase()} ${known ? task.version : `(version ${task.version ?? 'unknown'} is not in its table: its current spec)`}`;
  } else
    origin = `no test spec for ${task.repo}: \`${DEFAULT_TEST_CMD}\` assumed (name one with test_cmd and log_parser in the row, or testSpecs in the config)`;
  return {
    command: [testCmd, ...(files.length ? [quote(files)] : [])].join(' '),
    env: { ...(harness?.env ?? {}), ...(own?.env ?? {}) },
    rootSetup: own?.testCmd ? [] : (harness?.rootSetup ?? []),
    parser,
    // pytest: 0 all passed, 1 some failed; 2 (interrupted), 3 (internal error), 4 (usage) and 5
    // (nothing collected) mean the run did not complete. The other runners exit 0 or 1 likewise.
    completedExitCodes: [0, 1],
    origin,
    given: Boolean(own?.testCmd || own?.parser || harness),
    runnerFiles: table?.runnerFiles ?? [],
    ...(harness?.cpus ? { harnessCpus: harness.cpus } : {}),
    ...(harness?.tarpits ? { tarpits: harness.tarpits } : {}),
  };
}

/**
 * The harness's test directives: every file the test patch names, but data files; for django the
 * test modules as dotted labels. A patch of data files alone would run the whole suite there; here
 * it runs the files (or django modules) the graded tests live in.
 */
export function testDirectives(task: SpecSource, django: boolean): string[] {
  const paths = [...task.testPatch.matchAll(/^diff --git a\/.* b\/(.*)$/gm)].map((m) => m[1]!);
  let files = [...new Set(paths)].filter((p) => !NON_TEST_EXTENSIONS.some((ext) => p.endsWith(ext)));
  const graded = [...(task.failToPass ?? []), ...(task.passToPass ?? [])];
  if (django) {
    const labels = files.filter(isDjangoTestFile).map((f) =>
      f
        .replace(/\.py$/, '')
        .replace(/^tests\//, '')
        .replaceAll('/', '.'),
    );
    return labels.length ? [...new Set(labels)] : djangoModules(graded);
  }
  if (files.length === 0) files = [...new Set(graded.filter((id) => id.includes('.py')).map((id) => id.split('::')[0]!.replace(/:.*$/, '')))];
  return files;
}

/** The harness's test of a django path. */
function isDjangoTestFile(path: string): boolean {
  const name = path.split('/').at(-1)!;
  return name === 'tests.py' || name.startsWith('test_') || path.includes('/tests/') || path.includes('/test_');
}

/** `test_y (app.tests.Class)` or `test_y (app.tests.Class.test_y)` → the module `app.tests`. */
function djangoModules(ids: string[]): string[] {
  const modules = new Set<string>();
  for (const id of ids) {
    const m = /^(\w+) \(([\w.]+)\)$/.exec(id);
    if (!m) continue;
    const parts = m[2]!.split('.');
    if (parts.at(-1) === m[1]) parts.pop();
    parts.pop();
    if (parts.length) modules.add(parts.join('.'));
  }
  return [...modules];
}
