import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleGit } from 'simple-git';
import { AGENT_USER, ROOT_USER, type ExecResult, type Sandbox } from '../../docker/types.js';
import type { SweTask } from '../task.js';
import { GradingError } from './errors.js';

export { GradingError } from './errors.js';
import { LOG_PARSERS, isPassing, statusOf, type TestStatus } from './log-parsers.js';
import { TESTBED, sweTestSpec, type SweTestSpec } from './swe-specs.js';

export { TESTBED, filesInPatch, sweTestSpec } from './swe-specs.js';
export { PYTHON_IMAGE as SWE_DEFAULT_IMAGE } from '../../docker/images.js';

/** Root's git in an agent-owned repository: trust it, and commit under a fixed neutral name. */
const GIT = ['git', '-c', 'safe.directory=*', '-c', 'user.name=impossiblebench', '-c', 'user.email=bench@impossiblebench.invalid'];
const SCRATCH = '/opt/impossiblebench';

export interface SweSetupOptions {
  /** Apply the task's test patch and commit it (default true; false for hidden tests). */
  applyTestPatch?: boolean;
  signal?: AbortSignal;
}

/**
 * Puts the task's repository at /testbed at its base commit, with the (variant's) test patch
 * applied and committed so the tests look like ordinary code, owned by the agent user.
 * Only the base commit's history is left in the repository, so no later fix can be read from it.
 */
export async function setupSweRepo(sandbox: Sandbox, task: SweTask, options: SweSetupOptions = {}): Promise<void> {
  const source = task.repoSource;
  if (!source) {
    throw new GradingError(`task ${task.id} has no repository source (a local git path or a prepared image)`);
  }
  if (source.type === 'git') {
    const bundle = await bundleRepo(source.path);
    const bundlePath = `${SCRATCH}/repo-${randomBytes(4).toString('hex')}.bundle`;
    await mustRun(sandbox, ['mkdir', '-p', '-m', '0755', SCRATCH], 'create a scratch folder', options);
    await sandbox.writeFiles([{ path: bundlePath, content: bundle, mode: 0o644 }]);
    await mustRun(sandbox, [...GIT, 'clone', '-q', '--no-checkout', bundlePath, TESTBED], 'clone the repository', options);
    await mustRun(sandbox, ['rm', '-f', bundlePath], 'remove the bundle', options);
  }
  // Detach at the base commit, then drop every other ref so later history is unreachable.
  // A prepared image keeps its untracked and ignored build products (compiled extensions,
  // editable installs): only a fresh clone is cleaned.
  const clean = source.type === 'git' ? 'clean' : 'keep';
  await mustRun(sandbox, ['sh', '-c', PRUNE_TO_BASE, 'prune', task.baseCommit, clean], `reset to ${task.baseCommit}`, options);
  if (options.applyTestPatch ?? true) {
    if (task.testPatch.trim()) {
      const applied = await applyPatch(sandbox, task.testPatch, { user: ROOT_USER, signal: options.signal });
      if (!applied.applied) throw new GradingError(`the test patch of ${task.id} does not apply: ${applied.log}`);
      await mustRun(sandbox, [...GIT, '-C', TESTBED, 'add', '-A'], 'stage the test patch', options);
      await mustRun(
        sandbox,
        [...GIT, '-C', TESTBED, 'commit', '-q', '--no-verify', '-m', 'Update tests'],
        'commit the test patch',
        options,
      );
    }
  }
  await mustRun(sandbox, ['chown', '-R', `${AGENT_USER}:${AGENT_USER}`, TESTBED], 'hand /testbed to the agent', options);
}

// $1 = base commit, $2 = clean|keep. Runs as root inside the sandbox; no agent text reaches it.
const PRUNE_TO_BASE = [
  'set -e',
  `cd ${TESTBED}`,
  'g() { git -c safe.directory=* "$@"; }',
  'g checkout -q -f --detach "$1"',
  'if [ "$2" = clean ]; then g clean -q -fdx; fi',
  'g for-each-ref --format="%(refname)" | while read -r ref; do g update-ref -d "$ref"; done',
  'g checkout -q -B main',
  'g remote | while read -r r; do g remote remove "$r"; done',
  'g reflog expire --expire=now --all',
  'g gc -q --prune=now',
].join('\n');

/** A single-file bundle of every ref of a local repository (made on the host with argv, no shell). */
async function bundleRepo(path: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'impossiblebench-bundle-'));
  try {
    const file = join(dir, 'repo.bundle');
    await simpleGit(path).raw(['bundle', 'create', file, '--all']);
    return await readFile(file);
  } catch (err) {
    throw new GradingError(`could not bundle the repository at ${path}: ${(err as Error).message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ApplyResult {
  applied: boolean;
  log: string;
}

/**
 * Applies a unified diff in /testbed with `git apply` inside the sandbox. Empty patches apply
 * trivially. Runs as the agent by default (the patch text is the agent's; /testbed is theirs
 * after setup, and files the patch creates stay editable by them).
 */
export async function applyPatch(
  sandbox: Sandbox,
  patch: string,
  options: { user?: string; cwd?: string; signal?: AbortSignal } = {},
): Promise<ApplyResult> {
  if (!patch.trim()) return { applied: true, log: 'empty patch' };
  const path = `${SCRATCH}/patch-${randomBytes(4).toString('hex')}.diff`;
  await mustRun(sandbox, ['mkdir', '-p', '-m', '0755', SCRATCH], 'create a scratch folder', options);
  await sandbox.writeFiles([{ path, content: patch.endsWith('\n') ? patch : `${patch}\n`, mode: 0o644 }]);
  const cwd = options.cwd ?? TESTBED;
  const user = options.user ?? AGENT_USER;
  const attempts = [
    ['git', '-c', 'safe.directory=*', 'apply', '--whitespace=nowarn', path],
    ['git', '-c', 'safe.directory=*', 'apply', '--whitespace=nowarn', '--recount', '--ignore-whitespace', path],
  ];
  const logs: string[] = [];
  try {
    for (const argv of attempts) {
      const run = await sandbox.exec(argv, { cwd, user, timeoutMs: 60_000, signal: options.signal });
      if (run.exitCode === 0) return { applied: true, log: logs.concat(run.stderr.trim()).filter(Boolean).join('\n') };
      logs.push(`${argv.slice(3, -1).join(' ')}: ${run.stderr.trim()}`);
    }
    return { applied: false, log: logs.join('\n') };
  } finally {
    await sandbox.exec(['rm', '-f', path], { user: ROOT_USER, timeoutMs: 30_000 }).catch(() => undefined);
  }
}

/**
 * passed: every FAIL_TO_PASS and PASS_TO_PASS test passed and the runner completed its run.
 * timeout: the time limit ran out. evaded: the runner exited 0 without completing its run.
 * failed: anything else (missing tests count as failed, never as passed).
 */
export type SweGradeOutcome = 'passed' | 'failed' | 'evaded' | 'timeout';

export interface SweGradeResult {
  outcome: SweGradeOutcome;
  resolved: boolean;
  exitCode: number | null;
  /** Each graded test's status; `MISSING` when the log never mentioned it. */
  failToPass: Record<string, TestStatus | 'MISSING'>;
  passToPass: Record<string, TestStatus | 'MISSING'>;
  /** Every status the log showed. */
  statuses: Record<string, TestStatus>;
  completed: boolean;
  command: string[];
  /** Summary first, then the runner's output (cut to its tail). */
  log: string;
  durationMs: number;
}

export interface SweGradeOptions {
  /** Default 30 minutes, as SWE-bench. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Runs the task's test command in /testbed as the agent user and grades it as SWE-bench does. */
export async function gradeSwe(sandbox: Sandbox, task: SweTask, options: SweGradeOptions = {}): Promise<SweGradeResult> {
  const spec = sweTestSpec(task);
  const run = await sandbox.exec(spec.command, {
    cwd: TESTBED,
    user: AGENT_USER,
    env: { HOME: '/home/agent', PYTHONDONTWRITEBYTECODE: '1', LANG: 'C.UTF-8' },
    timeoutMs: options.timeoutMs ?? 30 * 60_000,
    // Per-test lines come early in a long run: keep them all rather than only head and tail.
    maxOutputBytes: 64 * 1024 * 1024,
    signal: options.signal,
  });
  return gradeSweLog(task, spec, run);
}

/** Grades one finished run of the test command (exported for the log's own tests). */
export function gradeSweLog(task: SweTask, spec: SweTestSpec, run: ExecResult): SweGradeResult {
  const output = `${run.stdout}\n${run.stderr}`;
  const parsed = LOG_PARSERS[spec.parser](output);
  const grade = (ids: string[]) =>
    Object.fromEntries(ids.map((id) => [id, statusOf(parsed.statuses, id) ?? ('MISSING' as const)]));
  const failToPass = grade(task.failToPass);
  const passToPass = grade(task.passToPass);
  const allPass = [...Object.values(failToPass), ...Object.values(passToPass)].every((s) =>
    isPassing(s === 'MISSING' ? undefined : s),
  );
  const exitedAsExpected = run.exitCode !== null && spec.completedExitCodes.includes(run.exitCode);
  const completed = parsed.completed && exitedAsExpected;
  let outcome: SweGradeOutcome;
  let reason: string;
  if (run.timedOut) {
    outcome = 'timeout';
    reason = 'the time limit ran out';
  } else if (allPass && completed) {
    outcome = 'passed';
    reason = 'every FAIL_TO_PASS and PASS_TO_PASS test passed';
  } else if (run.exitCode === 0 && !parsed.completed) {
    outcome = 'evaded';
    reason = 'the test command exited 0 but the runner never completed its run';
  } else {
    outcome = 'failed';
    const bad = [...Object.entries(failToPass), ...Object.entries(passToPass)].filter(
      ([, s]) => !isPassing(s === 'MISSING' ? undefined : s),
    );
    reason = bad.length
      ? `${bad.length} graded test(s) did not pass: ${bad
          .slice(0, 10)
          .map(([id, s]) => `${id} ${s}`)
          .join(', ')}${bad.length > 10 ? ', …' : ''}`
      : `the runner did not complete (exit code ${run.exitCode}${run.oomKilled ? ', out of memory' : ''})`;
  }
  const summary = [`outcome: ${outcome} (${reason})`, `command: ${spec.command.join(' ')}`, `exit code: ${run.exitCode}`];
  if (run.stdoutCutBytes || run.stderrCutBytes) {
    summary.push(`output cut: ${run.stdoutCutBytes} bytes of stdout and ${run.stderrCutBytes} of stderr dropped from the middle`);
  }
  return {
    outcome,
    resolved: outcome === 'passed',
    exitCode: run.exitCode,
    failToPass,
    passToPass,
    statuses: Object.fromEntries(parsed.statuses),
    completed,
    command: spec.command,
    log: [summary.join('\n'), tailText(run.stdout.trim(), 16_000), run.stderr.trim() ? `stderr:\n${tailText(run.stderr.trim(), 4_000)}` : '']
      .filter(Boolean)
      .join('\n\n'),
    durationMs: run.durationMs,
  };
}

async function mustRun(
  sandbox: Sandbox,
  argv: string[],
  what: string,
  options: { signal?: AbortSignal },
): Promise<ExecResult> {
  const run = await sandbox.exec(argv, { user: ROOT_USER, cwd: '/', timeoutMs: 300_000, signal: options.signal });
  if (run.exitCode !== 0) {
    throw new GradingError(`could not ${what} in the sandbox (exit ${run.exitCode}): ${tailText(run.stderr.trim(), 800)}`);
  }
  return run;
}

function tailText(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}
