import { randomBytes } from 'node:crypto';
import { execa } from 'execa';
import { simpleGit } from 'simple-git';
import type { FileToWrite, Sandbox } from '../../docker/types.js';
import { AGENT_USER, HARNESS_DIR, ROOT_USER } from '../../core/sandbox.js';
import type { SweTask } from '../task.js';
import { GradingError } from './errors.js';
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
}

export interface SweSetupOptions {
  /** Apply the task's test patch and commit it (default true; false for hidden tests). */
  applyTestPatch?: boolean;
  /** More files to write with setup's own (one engine call for all). */
  extraFiles?: FileToWrite[];
  signal?: AbortSignal;
}

const STEP = 'impossiblebench-step: ';
const ENV_MARK = 'impossiblebench-env ';

/**
 * `add_user NAME HOME`: makes a login user when the image has none of that name, with the first
 * uid from 1000 that no image user or group has (the SWE-bench images' `nonroot` is 1000), and
 * HOME ('' for none). No useradd: minimal images lack it, and /etc/passwd is all exec needs.
 * Prints `changed PATH` for each file it makes or changes, so they are not taken for the agent's.
 */
const ADD_USER_FN = [
  'add_user_taken() { cut -d: -f3 /etc/passwd /etc/group | grep -qx "$1"; }',
  'add_user() {',
  '  if grep -q "^$1:" /etc/passwd; then',
  '    [ "$(grep "^$1:" /etc/passwd | cut -d: -f3)" != 0 ] || { echo "the image\'s user $1 is root" >&2; return 1; }',
  '    return 0',
  '  fi',
  '  add_user_id=1000; while add_user_taken "$add_user_id"; do add_user_id=$((add_user_id + 1)); done',
  '  add_user_gid=$(grep "^$1:" /etc/group | cut -d: -f3)',
  '  if [ -z "$add_user_gid" ]; then add_user_gid=$add_user_id; echo "$1:x:$add_user_gid:" >>/etc/group; echo "changed /etc/group"; fi',
  '  add_user_shell=/bin/sh; [ -x /bin/bash ] && add_user_shell=/bin/bash',
  '  echo "$1:x:$add_user_id:$add_user_gid:impossiblebench:${2:-/nonexistent}:$add_user_shell" >>/etc/passwd; echo "changed /etc/passwd"',
  '  if [ -n "$2" ] && [ ! -d "$2" ]; then mkdir -p "$2"; chown "$add_user_id:$add_user_gid" "$2"; chmod 0755 "$2"; echo "changed $2"; fi',
  '}',
].join('\n');

/**
 * Prints ENV_MARK and the conda root, then the environment before and after activating the
 * repository's conda environment (`env -0` each, a NUL between them); ENV_MARK and `-` when there
 * is no such environment. Activation runs in bash where there is one, as in the harness.
 */
const CAPTURE_ENV_FN = [
  'capture_env() {',
  '  for root in "$(dirname "$(dirname "$(command -v conda || echo /nonexistent/bin/conda)")")" /opt/miniconda3 /opt/conda /opt/miniforge3; do',
  `    if [ -f "$root/bin/activate" ] && [ -d "$root/envs/${CONDA_ENV_NAME}" ]; then`,
  `      printf '${ENV_MARK}%s\\n' "$root"`,
  '      shell=sh; command -v bash >/dev/null && shell=bash',
  `      "$shell" -c 'env -0 && printf "\\0" && . "$1/bin/activate" && conda activate ${CONDA_ENV_NAME} && env -0' activate "$root"`,
  '      return',
  '    fi',
  '  done',
  `  printf '${ENV_MARK}-\\n'`,
  '}',
].join('\n');

/**
 * $1 = pack of the base commit's history ('' for a prepared image), $2 = base commit, $3 = git|image, $4 = test patch
 * ('' for none), $5 = the agent user, $6 = the grader user, $7 = the test spec's root setup lines
 * (run first; failures ignored, as the harness's eval script ignores them); the rest are the test
 * patch's files.
 * Runs as root inside the sandbox; no agent text reaches it.
 *
 * A git source arrives as a pack of the base commit's history alone, so no later commit is there to
 * hide: it is indexed into a new repository and checked out. A prepared image keeps its working
 * tree and build products when its HEAD is the base commit or the one commit the SWE-bench harness
 * adds on top of it (install steps may change tracked files); any other HEAD is reset to the base,
 * every ref is dropped and the objects repacked, so no later commit can be read.
 */
const SETUP = [
  'set -e',
  APPLY_PATCH_FN,
  ADD_USER_FN,
  CAPTURE_ENV_FN,
  `step() { echo "${STEP}$1" >&2; }`,
  'g() { git -c safe.directory=* -c user.name=impossiblebench -c user.email=bench@impossiblebench.invalid "$@"; }',
  'pack=$1; base=$2; source=$3; patch=$4; agent=$5; grader=$6; prepare=$7; shift 7',
  `if [ -n "$prepare" ]; then step 'prepare the environment as the harness does'; sh -c "$prepare" >&2 || true; fi`,
  "step 'add the users the sandbox runs commands as'",
  'add_user "$agent" "/home/$agent"',
  'add_user "$grader" ""',
  'if [ -n "$pack" ]; then',
  "  step 'unpack the repository'",
  `  g -c init.defaultBranch=main init -q ${TESTBED}; cd ${TESTBED}; g index-pack --stdin <"$pack" >/dev/null; rm -f "$pack"`,
  `  step "check out the base commit $base"`,
  '  g checkout -q -f -B main "$base"',
  'else',
  `  step "find the base commit $base in ${TESTBED}"`,
  `  cd ${TESTBED}`,
  '  g cat-file -e "$base^{commit}"',
  '  step "reset to $base"',
  '  head=$(g rev-parse -q --verify HEAD || true)',
  "  parent=$(g rev-parse -q --verify 'HEAD^' 2>/dev/null || true)",
  '  if [ "$head" != "$base" ] && [ "$parent" != "$base" ]; then g checkout -q -f --detach "$base"; fi',
  "  step 'hide the history after the base commit'",
  // Refs are moved by plumbing: a checkout would first re-read every file, since an image's index holds the stat
  // data of the machine that built it. One transaction: hundreds of tags would rewrite packed-refs once each.
  '  head=$(g rev-parse HEAD)',
  "  g for-each-ref --format='delete %(refname)' | g update-ref --stdin",
  '  g update-ref refs/heads/main "$head"; g symbolic-ref HEAD refs/heads/main',
  '  g remote | while read -r r; do g remote remove "$r"; done',
  '  rm -f .git/FETCH_HEAD .git/ORIG_HEAD .git/objects/pack/*.keep',
  '  g reflog expire --expire=now --all',
  '  g gc -q --prune=now',
  'fi',
  'if [ -n "$patch" ]; then',
  "  step 'apply the test patch'",
  '  apply_patch "$patch"',
  '  rm -f "$patch"',
  "  step 'commit the test patch'",
  '  g add -A -f -- "$@"',
  // Not `git commit`: it refreshes the whole index first (see above).
  "  g update-ref HEAD \"$(g commit-tree \"$(g write-tree)\" -p HEAD -m 'Update tests')\"",
  'fi',
  `step 'hand ${TESTBED} to the agent'`,
  'cd /',
  // An image's /testbed lives in a lower layer: chown would copy every file up one at a time, and overlayfs cannot
  // rename the folder (grading in a fresh copy moves it aside). One copy into the container's own layer does both.
  `if [ "$source" = image ]; then rm -rf ${TESTBED}.ib-copy; cp -a ${TESTBED} ${TESTBED}.ib-copy; rm -rf ${TESTBED}; mv ${TESTBED}.ib-copy ${TESTBED}; fi`,
  `chown -R "$agent:$(id -g "$agent")" ${TESTBED}`,
  `step 'activate the repository environment (conda ${CONDA_ENV_NAME})'`,
  'capture_env',
].join('\n');

/** Variables a shell sets for itself: never part of an environment's activation. */
const SHELL_OWN = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

/** Steps whose failure says the task or image cannot work here, however often it is tried. */
const CERTAIN_STEPS = [/^add the users/, /^find the base commit/, /^check out the base commit/, /^apply the test patch/, /^activate the repository environment/];

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
  const args = [pack, local?.commit ?? task.baseCommit, source.type, patch, AGENT_USER, GRADER_USER, prepare, ...patched];
  const run = await sandbox.exec(['sh', '-c', SETUP, 'setup', ...args], {
    user: ROOT_USER,
    cwd: '/',
    timeoutMs: 300_000,
    signal: options.signal,
  });
  if (run.exitCode === 0) {
    const report = run.stdout.slice(0, Math.max(0, run.stdout.lastIndexOf(ENV_MARK)));
    const changedOutside = [...report.matchAll(/^changed (\/.*)$/gm)].map((m) => m[1]!);
    return { runtime: parseRuntime(run.stdout), changedOutside };
  }
  const lines = run.stderr.split('\n');
  const step = lines.findLast((l) => l.startsWith(STEP))?.slice(STEP.length) ?? 'set the repository up';
  const log = tailText(lines.filter((l) => !l.startsWith(STEP)).join('\n').trim(), 800);
  const permanent = !run.timedOut && CERTAIN_STEPS.some((re) => re.test(step));
  if (step === 'apply the test patch') throw new GradingError(`the test patch of ${task.id} does not apply: ${log}`, { permanent });
  const why = run.timedOut ? 'it timed out' : `exit ${run.exitCode}`;
  throw new GradingError(`could not ${step} in the sandbox (${why}): ${log}`, { permanent });
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
    .then((out) => out.trim(), () => '');
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new GradingError(`could not find the base commit ${base} in the repository at ${path}`, { permanent: true });
  // pack-objects reads the commits to pack on stdin, which simple-git cannot give it.
  const made = await execa('git', ['-C', path, 'pack-objects', '--revs', '--stdout', '-q'], { input: `${commit}\n`, encoding: 'buffer', reject: false });
  if (made.exitCode !== 0) {
    throw new GradingError(`could not pack the history of ${base} in the repository at ${path}: ${Buffer.from(made.stderr).toString('utf8').trim()}`);
  }
  return { commit, pack: Buffer.from(made.stdout) };
}

export function tailText(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}
