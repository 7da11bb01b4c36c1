import { createHash, randomBytes } from 'node:crypto';
import { AGENT_HOME, AGENT_USER, HARNESS_DIR, ROOT_USER } from '../../core/sandbox.js';
import { perCall } from '../../core/signals.js';
import type { ExecResult, Sandbox } from '../../docker/types.js';
import { GradingError } from './errors.js';
import { withNewline } from './patch-shell.js';
import { PYTEST_CONFIG_PY } from './pytest-config.js';
import type { SweContract } from './swe-contract.js';
import {
  GRADE_IN_PLACE,
  PATHSPEC_FILES,
  PREPARE_GRADING_COPY,
  PRIVATE_DIR,
  PYTEST_CONFIG_SCRIPT,
  RESTORE_AFTER_GRADING,
  ROOTS_FILE,
  SETUP_PRIVATE,
} from './swe-scripts.js';
import { GRADER_USER, headAndTail, setupSweRepo, type SweRuntime } from './swe-setup.js';
import { TESTBED } from './swe-specs.js';

/**
 * The guards around a graded run of an agent's repository (the SWE grading scripts, swe-*.sh): a pristine copy kept at
 * setup, and each graded run either in /testbed as the agent left it with the agent's processes stopped first
 * (`in-place`), or in a fresh copy of the pristine repository with only the agent's non-test changes (`fresh-copy`).
 */
export type SweGuard = { mode: 'in-place' } | { mode: 'fresh-copy'; plugins: string; hiddenTests: boolean };

/** A follower of the sample's signal for one call (see perCall). */
function forCall(signal: AbortSignal | undefined): AbortSignal | undefined {
  return signal && perCall(signal);
}

/** A root command of the harness; a failure is a grading error that names the step. */
export async function asRoot(sandbox: Sandbox, argv: string[], what: string, signal: AbortSignal | undefined, env?: Record<string, string>) {
  const result = await sandbox.exec(argv, { user: ROOT_USER, cwd: '/', timeoutMs: 300_000, signal: forCall(signal), ...(env ? { env } : {}) });
  if (result.exitCode !== 0) {
    const why = result.timedOut ? 'it timed out' : `exit ${result.exitCode}${result.oomKilled ? ', out of memory' : ''}`;
    throw new GradingError(`could not ${what} in the sandbox (${why}): ${headAndTail((result.stderr || result.stdout).trim(), 800)}`);
  }
  return result.stdout;
}

/**
 * What setup learns of a pristine environment for grading in fresh copies: the pytest plugins it loads by entry point
 * (`none` when they cannot be listed) and the folders anyone may write to. Both follow from the image and what setup
 * put in it, so the first sandbox learns them and later ones of the same image id and repository are given them.
 */
interface PristineFacts {
  plugins: string;
  roots: string[];
}
const pristineFacts = new Map<string, PristineFacts>();
const PRISTINE_FACTS_KEPT = 64;

/** Makes the next setup of every image find its facts again (for tests that compare finding with being given). */
export function forgetPristineFacts(): void {
  pristineFacts.clear();
}

/** One word a line, as the pathspec files hold them. */
function lines(words: readonly string[]): string {
  return `${words.join('\n')}\n`;
}

/** What the pristine environment's facts are kept under: the image's id and all that setup puts in it, or none. */
async function pristineFactsKey(sandbox: Sandbox, contract: SweContract, hiddenTests: boolean): Promise<string | undefined> {
  const image = await sandbox.imageId?.().catch(() => undefined);
  if (!image) return undefined;
  const { task } = contract;
  const parts = [image, JSON.stringify(task.repoSource ?? null), task.baseCommit, hiddenTests ? '' : task.testPatch, ...contract.spec.rootSetup];
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

export interface SweGradingSetup {
  runtime: SweRuntime;
  guard: SweGuard;
  /** Single paths setup made or changed outside /testbed (users, their homes, the spec's root setup). */
  changedOutside: string[];
  /** Whether setup linked `python` to python3 (models type `python`; the image may only have python3). */
  linkedPython: boolean;
}

/**
 * Puts the repository in place for an agent (the test patch committed unless it is hidden) and keeps what its graded
 * runs need in root's private folder (0700, so in hidden mode nothing of it reaches the agent): the pathspecs, the
 * pristine copy and, for fresh copies, the pristine environment's facts.
 */
export async function setupSweGrading(
  sandbox: Sandbox,
  contract: SweContract,
  options: { mode: SweGuard['mode']; hiddenTests: boolean; signal?: AbortSignal },
): Promise<SweGradingSetup> {
  const { task, spec, pathspecs } = contract;
  const fresh = options.mode === 'fresh-copy';
  const extraFiles = [
    { path: PATHSPEC_FILES.runner, content: lines(pathspecs.runner), mode: 0o600 },
    { path: PATHSPEC_FILES.tests, content: lines(pathspecs.tests), mode: 0o600 },
    { path: PATHSPEC_FILES.source, content: lines(pathspecs.source), mode: 0o600 },
    { path: PATHSPEC_FILES.evidenceTests, content: lines(pathspecs.evidenceTests), mode: 0o600 },
    { path: PYTEST_CONFIG_SCRIPT, content: PYTEST_CONFIG_PY, mode: 0o600 },
  ];
  const factsKey = fresh ? await pristineFactsKey(sandbox, contract, options.hiddenTests) : undefined;
  const known = factsKey === undefined ? undefined : pristineFacts.get(factsKey);
  if (known) extraFiles.push({ path: ROOTS_FILE, content: lines(known.roots), mode: 0o600 });
  // The pristine copy's tree is what the agent's changes are read against. It is kept in setup's own call, unless
  // the harness's preparation changes the image first (the changes below are read in between).
  const keep = {
    script: SETUP_PRIVATE,
    step: 'keep a pristine copy of the repository',
    args: [fresh ? 'fresh' : 'in-place', known ? 'known' : 'new'],
  };
  const prepares = spec.rootSetup.length > 0;
  const done = await setupSweRepo(sandbox, task, {
    applyTestPatch: !options.hiddenTests,
    extraFiles,
    signal: forCall(options.signal),
    ...(prepares ? {} : { next: keep }),
  });
  const changedOutside = [...done.changedOutside];
  // What the harness's own preparation changed (a generated locale) is the image's state, not the agent's doing.
  if (prepares) {
    for (const change of await sandbox.changes()) if (!change.path.startsWith(`${TESTBED}/`)) changedOutside.push(change.path);
  }
  const prepared =
    done.nextOutput ?? (await asRoot(sandbox, ['sh', '-c', keep.script, 'setup', ...keep.args], keep.step, options.signal, done.runtime.env));
  const said = prepared.split('\n');
  if (!said.some((l) => /^tree [0-9a-f]{40,64}$/.test(l)))
    throw new GradingError('could not keep a pristine copy of the repository: git wrote no tree');
  const setup = { runtime: done.runtime, changedOutside, linkedPython: said.includes('linked') };
  if (!fresh) return { ...setup, guard: { mode: 'in-place' } };
  const learned = known ?? {
    plugins: said.find((l) => l.startsWith('plugins '))?.slice('plugins '.length) ?? 'none',
    roots: said.filter((l) => l.startsWith('root ')).map((l) => l.slice('root '.length)),
  };
  if (learned.roots.length === 0) throw new GradingError('could not list the folders anyone may write to in the sandbox');
  if (factsKey !== undefined && !known) {
    pristineFacts.set(factsKey, learned);
    for (const old of pristineFacts.keys()) if (pristineFacts.size > PRISTINE_FACTS_KEPT) pristineFacts.delete(old);
  }
  return { ...setup, guard: { mode: 'fresh-copy', plugins: learned.plugins, hiddenTests: options.hiddenTests } };
}

export interface GuardedRunOptions {
  runtime: SweRuntime;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The variables a graded run gets: the repository's environment, then the spec's own. */
export function gradingEnv(contract: SweContract, runtime: SweRuntime, home: string): Record<string, string> {
  return { ...runtime.env, ...contract.spec.env, HOME: home };
}

/**
 * A graded run in /testbed as the agent left it, in one engine call: no process of the agent's survives into the graded
 * run, and what it changed of the test runner is named; then the tests run as the agent.
 */
export async function runInPlace(
  sandbox: Sandbox,
  contract: SweContract,
  options: GuardedRunOptions,
): Promise<{ run: ExecResult; tamper: string[] }> {
  const marker = `ib-${randomBytes(8).toString('hex')}`;
  const run = await sandbox.exec(['sh', '-c', GRADE_IN_PLACE, 'grade', AGENT_USER, marker, contract.spec.command], {
    user: ROOT_USER,
    cwd: TESTBED,
    env: gradingEnv(contract, options.runtime, AGENT_HOME),
    timeoutMs: options.timeoutMs,
    maxOutputBytes: 64 * 1024 * 1024,
    signal: forCall(options.signal),
  });
  const ours = run.stderr
    .split('\n')
    .filter((l) => l.startsWith(`${marker} `))
    .map((l) => l.slice(marker.length + 1));
  const failed = ours.find((l) => l.startsWith('failed '));
  if (run.exitCode === 97 && failed) throw new GradingError(`could not check the repository before grading it: ${failed.slice('failed '.length)}`);
  const stderr = run.stderr
    .split('\n')
    .filter((l) => !l.startsWith(`${marker} `))
    .join('\n');
  const tamper = ours.filter((l) => l.startsWith('tamper ')).map((l) => l.slice('tamper '.length));
  return { run: { ...run, stderr }, tamper };
}

/**
 * A graded run in a fresh copy of the repository (the pristine one, plus the test patch when it was hidden) with only
 * the agent's changes to non-test files copied in, at /testbed, as a grading user of its own with no user
 * site-packages, an empty home and only the pytest plugins the pristine environment loads; the agent's own tree is put
 * back afterwards, and whatever the run left anywhere is removed.
 */
export async function runInFreshCopy(
  sandbox: Sandbox,
  contract: SweContract,
  guard: Extract<SweGuard, { mode: 'fresh-copy' }>,
  options: GuardedRunOptions,
): Promise<{ run: ExecResult; tamper: string[] }> {
  const { task } = contract;
  const tag = randomBytes(6).toString('hex');
  const dir = `${HARNESS_DIR}/grade-${tag}`;
  // In root's private folder (0700): hidden tests must never be readable by the agent.
  const tests = guard.hiddenTests && task.testPatch.trim() ? `${PRIVATE_DIR}/grade-${tag}.tests.diff` : '';
  if (tests) await sandbox.writeFiles([{ path: tests, content: withNewline(task.testPatch), mode: 0o600 }]);
  // One call kills what the agent left running, builds the copy and swaps it into /testbed's place while it is
  // graded: a prepared image's editable install, or a runner that resolves the package through it, must load the
  // graded copy and nothing of the agent's tree.
  const prepared = await sandbox.exec(['sh', '-c', PREPARE_GRADING_COPY, 'prepare', dir, tests, GRADER_USER, AGENT_USER], {
    user: ROOT_USER,
    cwd: '/',
    timeoutMs: 300_000,
    signal: forCall(options.signal),
  });
  if (prepared.exitCode !== 0) {
    await asRoot(sandbox, ['rm', '-rf', dir, ...(tests ? [tests] : [])], 'remove the grading copy', options.signal).catch(() => undefined);
    const log = headAndTail(prepared.stderr.trim(), 800);
    if (prepared.exitCode === 3) throw new GradingError(`the test patch of ${task.id} does not apply: ${log}`, { permanent: true });
    const how = prepared.timedOut ? 'it timed out' : `exit ${prepared.exitCode}`;
    throw new GradingError(`could not put the grading copy in place in the sandbox (${how}): ${log}`);
  }
  try {
    // Only the plugins the pristine environment loads: none the agent's changes could have installed or declared.
    const pluginEnv: Record<string, string> = guard.plugins === 'none' ? {} : { PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1', PYTEST_PLUGINS: guard.plugins };
    const run = await sandbox.exec(['sh', '-c', contract.spec.command], {
      cwd: TESTBED,
      user: GRADER_USER,
      env: { ...gradingEnv(contract, options.runtime, `${dir}/home`), PYTHONNOUSERSITE: '1', ...pluginEnv },
      timeoutMs: options.timeoutMs,
      maxOutputBytes: 64 * 1024 * 1024,
      signal: forCall(options.signal),
    });
    return { run, tamper: [...prepared.stdout.matchAll(/^tamper (.+)$/gm)].map((m) => m[1]!) };
  } finally {
    await asRoot(sandbox, ['sh', '-c', RESTORE_AFTER_GRADING, 'restore', dir, GRADER_USER], "put the agent's repository back", options.signal);
  }
}
