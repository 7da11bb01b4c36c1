import { HARNESS_DIR } from '../../core/sandbox.js';
import { fillPlaceholders, readShipped, shellWord } from '../../core/shipped.js';
import { CLEAN_USER_FN } from '../../docker/user-cleanup.js';
import { APPLY_PATCH_FN } from './patch-shell.js';
import { COPY_REPO_FN } from './copy-repo.js';
import { TESTBED } from './swe-specs.js';
import { NOISE_EXCLUDES } from './swe-paths.js';

/**
 * The root-run shell scripts of a SWE-style sample (swe-*.sh beside this file). Everything they need that setup knows
 * is kept in root's private folder (0700), so each script takes few arguments and no agent text reaches a shell:
 * - `pristine/`: the repository as setup left it, the base of every diff and of each fresh grading copy (with in-place
 *   grading only its .git: the object files are shared with /testbed's, made root's and read-only, not copied);
 * - `base`: its tree; `roots`: the folders anyone may write to;
 * - `*.pathspecs`: which paths are tests and runner files (see swe-paths.ts), one git pathspec a line;
 * - `evidence`: the agent's changes as the last grading took them (see keep_evidence in swe-lib.sh).
 */

export const PRIVATE_DIR = `${HARNESS_DIR}/private`;
export const PRISTINE = `${PRIVATE_DIR}/pristine`;
export const PYTEST_CONFIG_SCRIPT = `${PRIVATE_DIR}/pytest-config.py`;
export const ROOTS_FILE = `${PRIVATE_DIR}/roots`;
export const EVIDENCE_FILE = `${PRIVATE_DIR}/evidence`;

/** How much of each of the two evidence diffs the record keeps; the rest is cut, with a note. */
export const MAX_EVIDENCE_DIFF_BYTES = 2 * 1024 * 1024;

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

const BIG_FILE_MB = 8;

/** swe-lib.sh with the harness's paths filled in: the one place they reach the scripts' text. */
export const SWE_LIB = fillPlaceholders(
  readShipped(import.meta.url, 'swe-lib.sh'),
  {
    PRIVATE_DIR: shellWord(PRIVATE_DIR),
    TESTBED: shellWord(TESTBED),
    HARNESS_DIR: shellWord(HARNESS_DIR),
    PYTEST_CONFIG_SCRIPT: shellWord(PYTEST_CONFIG_SCRIPT),
    RUNNER_PATHSPECS: shellWord(PATHSPEC_FILES.runner),
    SOURCE_PATHSPECS: shellWord(PATHSPEC_FILES.source),
    EVIDENCE_TESTS_PATHSPECS: shellWord(PATHSPEC_FILES.evidenceTests),
    EVIDENCE_FILE: shellWord(EVIDENCE_FILE),
    EVIDENCE_MAX_BYTES: String(MAX_EVIDENCE_DIFF_BYTES),
    NOISE_EXCLUDES: NOISE_EXCLUDES.map(shellWord).join(' '),
    BIG_FILE_MB: String(BIG_FILE_MB),
  },
  'swe-lib.sh',
);

/** A script: the shell functions every one may call, then its own body (each file says what it does and takes). */
function script(name: string): string {
  return [CLEAN_USER_FN, APPLY_PATCH_FN, COPY_REPO_FN, SWE_LIB, readShipped(import.meta.url, name)].join('\n');
}

/** Setup, after the repository is in place. $1 = fresh|in-place, $2 = known|new. Prints `tree SHA`, `linked`, `plugins`, `root` lines. */
export const SETUP_PRIVATE = script('swe-setup-private.sh');

/** A graded run in /testbed as the agent left it. $1 = the agent user, $2 = a marker, $3 = the test command. */
export const GRADE_IN_PLACE = script('swe-grade-in-place.sh');

/** A fresh grading copy put in /testbed's place. $1 = grading folder, $2 = hidden test patch or '', $3 = grader, $4 = agent. */
export const PREPARE_GRADING_COPY = script('swe-prepare-grading-copy.sh');

/** After a graded run in a fresh copy. $1 = grading folder, $2 = the grader user. */
export const RESTORE_AFTER_GRADING = script('swe-restore-after-grading.sh');

/** The evidence as the sample ends, when no grading just took it. */
export const EVIDENCE_DIFFS = script('swe-evidence-diffs.sh');
