import { HARNESS_DIR } from '../../core/sandbox.js';
import { CLEAN_USER_FN } from '../../docker/user-cleanup.js';
import { APPLY_PATCH_FN } from '../../tasks/env/patch-shell.js';
import { TESTBED } from '../../tasks/env/swe-specs.js';
import { NOISE_EXCLUDES } from './swe-paths.js';

/**
 * The root-run shell scripts of a SWE-style sample. Everything they need that setup knows is kept in root's private
 * folder (0700), so each script takes few arguments and no agent text reaches a shell:
 * - `pristine/`: the repository as setup left it, the base of every diff and of each fresh grading copy (with in-place
 *   grading only its .git: the object files are shared with /testbed's, made root's and read-only, not copied);
 * - `base`: its tree; `roots`: the folders anyone may write to; `plugins`: the pytest plugins its environment loads;
 * - `*.pathspecs`: which paths are tests and runner files (see swe-paths.ts), one git pathspec a line.
 */

export const PRIVATE_DIR = `${HARNESS_DIR}/private`;
export const PRISTINE = `${PRIVATE_DIR}/pristine`;
export const PYTEST_CONFIG_SCRIPT = `${PRIVATE_DIR}/pytest-config.py`;

/** The pathspec files setup writes. */
export const PATHSPEC_FILES = {
  runner: `${PRIVATE_DIR}/runner.pathspecs`,
  /** Paths a grading copy takes from the pristine repository. */
  tests: `${PRIVATE_DIR}/tests.pathspecs`,
  /** Everything else: the agent's source changes. */
  source: `${PRIVATE_DIR}/source.pathspecs`,
  /** The evidence's test diff: tests and runner files, not package metadata. */
  evidenceTests: `${PRIVATE_DIR}/evidence-tests.pathspecs`,
} as const;

/** Shared by every script: root's git on the pristine object store, a pathspec file as NUL-separated words. */
const COMMON = [
  `P=${PRIVATE_DIR}`,
  'g() { git -c safe.directory=* --git-dir="$P/pristine/.git" "$@"; }',
  'specs() { tr "\\n" "\\0" <"$1"; }',
  'gspecs() { f=$1; shift; specs "$f" | xargs -0 git -c safe.directory=* --git-dir="$P/pristine/.git" "$@" --; }',
].join('\n');

/**
 * Sets $now to the tree of /testbed as it is on disk, written into the pristine object store through root's own
 * index of it (kept from setup, so only files whose stat changed are read again): every file, ignored ones too (no
 * ignore file hides a change), without bytecode and caches. Nothing the agent did to /testbed/.git (commits, resets,
 * hooks, a deleted .git) matters; git never takes a .git folder into a tree. `first` makes that index, at setup.
 */
function treeOf(first = false): string[] {
  const noise = NOISE_EXCLUDES.map((p) => `'${p}'`).join(' ');
  if (first) return ['export GIT_INDEX_FILE="$P/index"', `g --work-tree=${TESTBED} add -A -f -- . ${noise}`, 'now=$(g write-tree)'];
  // Files over ${BIG_FILE_MB} MiB written since setup are left out (their entries kept as they were): hashing and
  // copying them would fill the disk a second time. They are listed in $big.
  return [
    'base=$(cat "$P/base")',
    'export GIT_INDEX_FILE="$P/index"; big="$P/big-$$"',
    `trap 'rm -f "$big"' EXIT`,
    `(cd ${TESTBED} && find . -xdev -type f -size +${BIG_FILE_MB}M -newer "$P/base" -printf '%P\\n' 2>/dev/null) >"$big"`,
    `sed 's/^/:(exclude,top,literal)/' "$big" | tr '\\n' '\\0' | xargs -0 git -c safe.directory=* --git-dir="$P/pristine/.git" --work-tree=${TESTBED} add -A -f -- . ${noise}`,
    'now=$(g write-tree)',
  ];
}

const BIG_FILE_MB = 8;

/**
 * `tamper_signs`: prints `tamper WHAT` for each change between $base and $now that reaches into the test runner:
 * runner files, and pytest's sections of a setup.cfg or pyproject.toml (compared as pytest would read them).
 */
const TAMPER_SIGNS_FN = [
  'tamper_signs() {',
  `  gspecs ${PATHSPEC_FILES.runner} diff --name-only --no-renames "$base" "$now" | while IFS= read -r f; do echo "tamper changed the test runner's file $f"; done`,
  '  py=$(command -v python3 || command -v python) || return 0',
  "  g diff --name-only --no-renames \"$base\" \"$now\" -- ':(glob)**/setup.cfg' ':(glob)**/pyproject.toml' | while IFS= read -r f; do",
  '    t=$(mktemp -d); mkdir "$t/a" "$t/b"; name=${f##*/}',
  '    g show "$base:$f" >"$t/a/$name" 2>/dev/null || rm -f "$t/a/$name"',
  '    g show "$now:$f" >"$t/b/$name" 2>/dev/null || rm -f "$t/b/$name"',
  `    if [ "$("$py" ${PYTEST_CONFIG_SCRIPT} diff "$t/a/$name" "$t/b/$name")" = changed ]; then echo "tamper changed pytest's settings in $f"; fi`,
  '    rm -rf "$t"',
  '  done',
  '}',
].join('\n');

/** `seal USER`: nothing of the user's stays writable by others (a graded run must not write into it). */
const SEAL_FN = [
  'seal() {',
  `  for r in $(cat "$P/roots") ${TESTBED} "/home/$1"; do [ -d "$r" ] && find "$r" -xdev -user "$1" -perm -0002 ! -type l -exec chmod o-w {} + 2>/dev/null; done`,
  '  return 0',
  '}',
].join('\n');

/**
 * Setup, after the repository is in place: the pristine copy, the python link and the base tree; for grading in
 * fresh copies ($1 = fresh) also the writable roots and the environment's pytest plugins. Runs with the repository's
 * environment. Prints `tree SHA`, and `linked` when it made the python link.
 */
export const SETUP_PRIVATE = [
  'set -e',
  COMMON,
  'mkdir -p "$P"; chmod 0700 "$P"; rm -rf "$P/pristine"',
  'if [ "$1" = fresh ]; then cp -a /testbed "$P/pristine"; else',
  // Git never writes into an object file, so the agent's git works on with them read-only; it may only unlink its own
  // names for them. Sharing them saves copying a repository's whole history (hundreds of MB in SWE-bench images).
  '  find /testbed/.git/objects -type f -exec chown 0:0 {} + -exec chmod 0444 {} +',
  '  mkdir -p "$P/pristine/.git"',
  '  find /testbed/.git -mindepth 1 -maxdepth 1 ! -name objects -exec cp -a -t "$P/pristine/.git" {} +',
  '  cp -al /testbed/.git/objects "$P/pristine/.git/objects"',
  'fi',
  'if ! command -v python >/dev/null; then ln -s "$(command -v python3)" /usr/local/bin/python; echo linked; fi',
  ...treeOf(true),
  'echo "$now" >"$P/base"; echo "tree $now"',
  'chmod 0600 "$P/base"',
  '[ "$1" = fresh ] || exit 0',
  // Folders anyone may write to, where a graded run's leftovers could wait for the agent (tmpfs ones by name).
  `{ find / -xdev \\( -path /proc -o -path /sys -o -path ${HARNESS_DIR} \\) -prune -o -type d -perm -0002 -print -prune 2>/dev/null; printf '%s\\n' /dev/shm /dev/mqueue /run/lock; } | sort -u >"$P/roots"`,
  // The pytest plugins the pristine environment loads by entry point; `none` when they cannot be listed.
  `(python - 2>/dev/null <<'PY' || echo none) >"$P/plugins"`,
  'mods = None',
  'try:',
  '    from importlib import metadata',
  '    eps = metadata.entry_points()',
  '    group = eps.select(group="pytest11") if hasattr(eps, "select") else eps.get("pytest11", [])',
  '    mods = [e.value for e in group]',
  'except Exception:',
  '    try:',
  '        import pkg_resources',
  '        mods = [e.module_name for e in pkg_resources.iter_entry_points("pytest11")]',
  '    except Exception:',
  '        pass',
  'print("none" if mods is None else ",".join(sorted(set(m.split(":")[0].strip() for m in mods))))',
  'PY',
  'chmod 0600 "$P/plugins" "$P/roots"',
].join('\n');

/**
 * A graded run in /testbed as the agent left it (full access), in one call: as root, no process of the agent's
 * survives and the tamper signs go to stderr behind the marker; then the test command runs as the agent.
 * $1 = the agent user, $2 = a marker, $3 = the test command. Exit 97 behind a `MARKER failed` line: the checks broke.
 */
export const GRADE_IN_PLACE = [
  '(',
  '  set -e',
  COMMON,
  CLEAN_USER_FN,
  TAMPER_SIGNS_FN,
  '  ib_clean_user "$1"',
  ...treeOf(),
  '  tamper_signs',
  ') >"/tmp/ib-pre-$2" 2>&1 || { echo "$2 failed $(tail -n 3 "/tmp/ib-pre-$2" | tr \'\\n\' \' \')" >&2; rm -f "/tmp/ib-pre-$2"; exit 97; }',
  'sed -n "s/^tamper /$2 tamper /p" "/tmp/ib-pre-$2" >&2; rm -f "/tmp/ib-pre-$2"',
  `cd ${TESTBED}`,
  'exec setpriv --reuid="$1" --regid="$(id -g "$1")" --init-groups -- sh -c "$3"',
].join('\n');

/**
 * A fresh grading copy put in /testbed's place (read-only and hidden tests): the pristine repository, the hidden
 * tests, and the agent's changes to source files only, copied file by file (links, modes and binary files as they
 * are), with pytest's sections of changed config files restored. Before it: no process of the agent's survives, and
 * nothing of the agent's stays writable by others.
 * $1 = grading folder, $2 = hidden test patch or '', $3 = the grader user, $4 = the agent user.
 * Prints the tamper signs. Exit 3: the test patch does not apply.
 */
export const PREPARE_GRADING_COPY = [
  'set -e',
  COMMON,
  APPLY_PATCH_FN,
  CLEAN_USER_FN,
  TAMPER_SIGNS_FN,
  SEAL_FN,
  'ib_clean_user "$4"',
  'seal "$4"',
  ...treeOf(),
  'tamper_signs',
  'repo="$1/testbed"',
  'mkdir -m 0755 "$1"; cp -a "$P/pristine" "$repo"; mkdir -m 0700 "$1/home"',
  'cd "$repo"',
  'if [ -n "$2" ]; then apply_patch "$2" || exit 3; rm -f "$2"; fi',
  `gspecs ${PATHSPEC_FILES.source} diff -z --name-only --no-renames --diff-filter=D "$base" "$now" | xargs -0 -r rm -rf --`,
  `gspecs ${PATHSPEC_FILES.source} diff -z --name-only --no-renames --diff-filter=d "$base" "$now" >"$1/changed"`,
  `if [ -s "$1/changed" ]; then tar -C ${TESTBED} --null -T "$1/changed" -cf - | tar -C "$repo" --recursive-unlink -xf -; fi`,
  'py=$(command -v python3 || command -v python || true)',
  `tr '\\0' '\\n' <"$1/changed" | grep -E '(^|/)(setup\\.cfg|pyproject\\.toml)$' | while IFS= read -r f; do`,
  `  [ -n "$py" ] && "$py" ${PYTEST_CONFIG_SCRIPT} restore "$P/pristine/$f" "$repo/$f"`,
  'done',
  'cd /',
  `chown -R "$3:$(id -g "$3")" "$repo" "$1/home"; mv ${TESTBED} "$1/agent-testbed"; mv "$repo" ${TESTBED} || { mv "$1/agent-testbed" ${TESTBED}; exit 1; }`,
].join('\n');

/**
 * After a graded run in a fresh copy: nothing of the grader's survives (processes, IPC objects, files wherever others
 * may write), and the agent's tree goes back. $1 = grading folder, $2 = the grader user.
 */
export const RESTORE_AFTER_GRADING = [
  'set -e',
  COMMON,
  CLEAN_USER_FN,
  'ib_clean_user "$2"',
  `rm -rf ${TESTBED}; mv "$1/agent-testbed" ${TESTBED}`,
  'for r in $(cat "$P/roots"); do [ -d "$r" ] && find "$r" -xdev -depth -user "$2" -exec rm -rf {} + 2>/dev/null; done',
  'rm -rf "$1"',
].join('\n');

/**
 * The evidence: the agent's changes as two diffs, tests and runner files apart from the rest, and the files left out
 * for their size. Prints the three sizes in bytes on one line, then at most $1 bytes of each.
 */
export const EVIDENCE_DIFFS = [
  'set -e',
  COMMON,
  ...treeOf(),
  't=$(mktemp -d); trap \'rm -rf "$t" "$big"\' EXIT',
  `gspecs ${PATHSPEC_FILES.source} diff --no-color --no-ext-diff --no-renames "$base" "$now" >"$t/source"`,
  `gspecs ${PATHSPEC_FILES.evidenceTests} diff --no-color --no-ext-diff --no-renames "$base" "$now" >"$t/tests"`,
  'echo "$(wc -c <"$t/source") $(wc -c <"$t/tests") $(wc -c <"$big")"',
  'head -c "$1" "$t/source"; head -c "$1" "$t/tests"; head -c "$1" "$big"',
].join('\n');
