import { randomBytes } from 'node:crypto';
import { execa } from 'execa';
import { simpleGit } from 'simple-git';
import { fillPlaceholders, readShipped, shellWord } from '../../core/shipped.js';
import type { FileToWrite, Sandbox } from '../../docker/types.js';
import { AGENT_USER, HARNESS_DIR, ROOT_USER } from '../../core/sandbox.js';
import type { SweTask } from '../task.js';
import { GradingError } from './errors.js';
import { COPY_REPO_FN } from './copy-repo.js';
import { CLEAN_USER_FN } from '../../docker/user-cleanup.js';
import { HIDE_HISTORY_FN, HISTORY_STORE } from './hide-history.js';
import { APPLY_PATCH_FN, withNewline } from './patch-shell.js';
import { TESTBED, filesInPatch, sweTestSpec } from './swe-specs.js';

/** The user fresh-copy grading runs as: created at setup with a uid no image user has. */
export const GRADER_USER = 'ib-grader';

/** The conda environment the SWE-bench images install the repository into. */
export const CONDA_ENV_NAME = 'testbed';

/**
 * How commands run inside the repository's environment, as the SWE-bench harness's eval script
 * activates it (`source /opt/miniconda3/bin/activate; conda activate testbed`): the variables that
 * activation sets or changes. Empty when the image has no such environment: its own PATH serves.
 */
export interface SweRuntime {
  env: Record<string, string>;
  /** In words, for logs and errors: `conda environment testbed at /opt/miniconda3`, or the image's PATH. */
  description: string;
}

export const IMAGE_PATH_RUNTIME: SweRuntime = { env: {}, description: "the image's PATH" };

/** What setup made of the sandbox. */
export interface SweSetup {
  runtime: SweRuntime;
  /** Paths outside /testbed that setup made or changed (users and their homes): not the agent's doing. */
  changedOutside: string[];
  /** The output of `next`, when it ran in the same call (the environment is the image's PATH). */
  nextOutput?: string;
}

export interface SweSetupOptions {
  /** Apply the task's test patch and commit it (default true; false for hidden tests). */
  applyTestPatch?: boolean;
  /** More files to write with setup's own (one engine call for all). */
  extraFiles?: FileToWrite[];
  /**
   * A root script to run right after setup, in the same call when the repository's environment is the image's PATH
   * (one round trip less); the caller runs it itself otherwise. `step` names it in errors; `args` are plain words.
   */
  next?: { script: string; step: string; args: string[] };
  signal?: AbortSignal;
}

/** What begins the line a setup script writes to stderr before each step. */
export const SETUP_STEP_MARK = 'impossiblebench-step: ';

const ENV_MARK = 'impossiblebench-env ';
/** Where the output of a `next` script run in the setup call begins, right after an ENV_MARK line with no environment. */
const NEXT_MARK = 'impossiblebench-next\n';

/**
 * The setup script (swe-setup.sh, after the user functions, apply_patch, copy_repo and hide_history): `sh -c SETUP setup
 * PACK BASE git|image PATCH AGENT GRADER PREPARE NEXT NEXT_STEP NEXT_ARGS TEST_FILES...`. Runs as root inside the sandbox;
 * no agent text reaches it.
 */
const SETUP = [
  CLEAN_USER_FN,
  APPLY_PATCH_FN,
  COPY_REPO_FN,
  HIDE_HISTORY_FN,
  fillPlaceholders(
    readShipped(import.meta.url, 'swe-setup.sh'),
    {
      TESTBED: shellWord(TESTBED),
      STEP_MARK: shellWord(SETUP_STEP_MARK),
      ENV_MARK: shellWord(ENV_MARK),
      CONDA_ENV_NAME: plainName(CONDA_ENV_NAME),
      HISTORY_STORE: shellWord(HISTORY_STORE),
      NEXT_MARK: shellWord(NEXT_MARK),
    },
    'swe-setup.sh',
  ),
].join('\n');

/** A name that may stand in shell text as it is, quoted or not. */
function plainName(value: string): string {
  if (!/^[A-Za-z0-9_.-]+$/.test(value)) throw new Error(`${value} is not a plain name`);
  return value;
}

/** Variables a shell sets for itself: never part of an environment's activation. */
const SHELL_OWN = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

/** Steps whose failure says the task or image cannot work here, however often it is tried. */
const CERTAIN_STEPS = [
  /^add the users/,
  /^find the base commit/,
  /^check out the base commit/,
  /^apply the test patch/,
  /^activate the repository environment/,
];

/**
 * Puts the task's repository at /testbed at its base commit (see SETUP), with the variant's test
 * patch applied and committed so the tests look like ordinary code, owned by the agent user (made
 * when the image has none). Returns how commands enter the repository's environment.
 */
export async function setupSweRepo(sandbox: Sandbox, task: SweTask, options: SweSetupOptions = {}): Promise<SweSetup> {
  const source = task.repoSource;
  if (!source) {
    throw new GradingError(`task ${task.id} has no repository source (a local git path or a prepared image)`, { permanent: true });
  }
  // Everything goes in with one archive write and runs as one script: each engine call costs
  // about as much as the step it runs, and a sample's setup has a dozen steps.
  const tag = randomBytes(4).toString('hex');
  const local = source.type === 'git' ? await packHistory(source.path, task.baseCommit) : undefined;
  const pack = local ? `${HARNESS_DIR}/repo-${tag}.pack` : '';
  const patch = (options.applyTestPatch ?? true) && task.testPatch.trim() ? `${HARNESS_DIR}/patch-${tag}.diff` : '';
  const files = [
    ...(local ? [{ path: pack, content: local.pack, mode: 0o600 }] : []),
    ...(patch ? [{ path: patch, content: withNewline(task.testPatch), mode: 0o644 }] : []),
    ...(options.extraFiles ?? []),
  ];
  await sandbox.writeFiles(files);
  const patched = patch ? filesInPatch(task.testPatch) : [];
  const prepare = sweTestSpec(task).rootSetup.join('\n');
  const next = options.next;
  const nextArgs = (next?.args ?? []).map(plainName).join(' ');
  const args = [
    pack,
    local?.commit ?? task.baseCommit,
    source.type,
    patch,
    AGENT_USER,
    GRADER_USER,
    prepare,
    next?.script ?? '',
    next?.step ?? '',
    nextArgs,
    ...patched,
  ];
  const run = await sandbox.exec(['sh', '-c', SETUP, 'setup', ...args], {
    user: ROOT_USER,
    cwd: '/',
    timeoutMs: 300_000,
    signal: options.signal,
  });
  if (run.exitCode === 0) {
    const nextAt = next ? run.stdout.indexOf(`${ENV_MARK}-\n${NEXT_MARK}`) : -1;
    const own = nextAt < 0 ? run.stdout : run.stdout.slice(0, nextAt + ENV_MARK.length + 2);
    const report = own.slice(0, Math.max(0, own.lastIndexOf(ENV_MARK)));
    const changedOutside = [...report.matchAll(/^changed (\/.*)$/gm)].map((m) => m[1]!);
    const nextOutput = nextAt < 0 ? undefined : run.stdout.slice(own.length + NEXT_MARK.length);
    return { runtime: parseRuntime(own), changedOutside, ...(nextOutput !== undefined ? { nextOutput } : {}) };
  }
  const { step, log } = failedStep(run.stderr, 'set the repository up');
  const permanent = !run.timedOut && CERTAIN_STEPS.some((re) => re.test(step));
  if (step === 'apply the test patch') throw new GradingError(`the test patch of ${task.id} does not apply: ${log}`, { permanent });
  const why = run.timedOut ? 'it timed out' : `exit ${run.exitCode}`;
  throw new GradingError(`could not ${step} in the sandbox (${why}): ${log}`, { permanent });
}

/** The step a setup script failed in (the last one it named on stderr, else `fallback`), and the end of its log. */
export function failedStep(stderr: string, fallback: string): { step: string; log: string } {
  const lines = stderr.split('\n');
  const step = lines.findLast((l) => l.startsWith(SETUP_STEP_MARK))?.slice(SETUP_STEP_MARK.length) ?? fallback;
  const log = lines
    .filter((l) => !l.startsWith(SETUP_STEP_MARK))
    .join('\n')
    .trim();
  return { step, log: tailText(log, 800) };
}

/** The runtime from the setup script's output: what activation changed, or the image's PATH. */
function parseRuntime(stdout: string): SweRuntime {
  const at = stdout.lastIndexOf(ENV_MARK);
  if (at < 0) throw new GradingError('the setup script did not report the repository environment');
  const rest = stdout.slice(at + ENV_MARK.length);
  const newline = rest.indexOf('\n');
  const root = rest.slice(0, newline);
  if (root === '-') return IMAGE_PATH_RUNTIME;
  const [before, after] = rest.slice(newline + 1).split('\0\0', 2) as [string, string | undefined];
  const read = (text: string) =>
    new Map(
      text
        .split('\0')
        .filter((entry) => entry.includes('='))
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)] as const),
    );
  const was = read(before);
  const env: Record<string, string> = {};
  for (const [name, value] of read(after ?? '')) {
    if (SHELL_OWN.has(name) || name.startsWith('IMPOSSIBLEBENCH_') || was.get(name) === value) continue;
    env[name] = value;
  }
  if (!env.PATH) throw new GradingError(`activating the conda environment ${CONDA_ENV_NAME} at ${root} did not change PATH`, { permanent: true });
  return { env, description: `conda environment ${CONDA_ENV_NAME} at ${root}` };
}

/** A local repository's base commit, resolved to its hash, and a git pack of it and everything it reaches. */
interface BasePack {
  commit: string;
  pack: Buffer;
}

/**
 * The base commit's history and nothing else, so no later commit of the local repository enters the sandbox. Made
 * on the host with argv (no shell), once per repository and commit name.
 */
const packs = new Map<string, Promise<BasePack>>();

function packHistory(path: string, base: string): Promise<BasePack> {
  const key = `${path}\0${base}`;
  let pack = packs.get(key);
  if (!pack) {
    pack = makePack(path, base);
    packs.set(key, pack);
    pack.catch(() => packs.get(key) === pack && packs.delete(key));
  }
  return pack;
}

async function makePack(path: string, base: string): Promise<BasePack> {
  // rev-parse -q says nothing and prints nothing for a name it cannot resolve.
  const commit = await simpleGit(path)
    .raw(['rev-parse', '--verify', '-q', '--end-of-options', `${base}^{commit}`])
    .then(
      (out) => out.trim(),
      () => '',
    );
  if (!/^[0-9a-f]{40,64}$/.test(commit))
    throw new GradingError(`could not find the base commit ${base} in the repository at ${path}`, { permanent: true });
  // pack-objects reads the commits to pack on stdin, which simple-git cannot give it.
  const made = await execa('git', ['-C', path, 'pack-objects', '--revs', '--stdout', '-q'], {
    input: `${commit}\n`,
    encoding: 'buffer',
    reject: false,
  });
  if (made.exitCode !== 0) {
    throw new GradingError(`could not pack the history of ${base} in the repository at ${path}: ${Buffer.from(made.stderr).toString('utf8').trim()}`);
  }
  return { commit, pack: Buffer.from(made.stdout) };
}

export function tailText(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}

/** Keeps the head and the tail of a long text, saying how much was cut from the middle. */
export function headAndTail(text: string, maxChars = 16_000): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars * 0.5);
  const tail = maxChars - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n\n[... ${cut} characters cut from the middle of the output ...]\n\n${text.slice(text.length - tail)}`;
}
