/**
 * Which paths of a repository are test infrastructure rather than the code under test, as git pathspecs, so the
 * sandbox's own git sorts an agent's changes (no diff has to travel to the host and back to be split).
 */

const literal = (path: string) => `:(top,literal)${path}`;
const glob = (pattern: string) => `:(top,glob)${pattern}`;

/**
 * Files that drive the test runner: a change to one is tampering with how tests run, whatever the access mode.
 * Config files that mix packaging and pytest settings (setup.cfg, pyproject.toml) are judged by their pytest
 * sections instead (see pytest-config.ts).
 */
export function runnerPathspecs(runnerFiles: readonly string[]): string[] {
  return [
    ...runnerFiles.map(literal),
    glob('**/conftest.py'),
    glob('**/pytest.ini'),
    glob('**/.pytest.ini'),
    glob('**/tox.ini'),
    glob('**/*.pth'),
    glob('**/sitecustomize.py'),
    glob('**/usercustomize.py'),
    glob('**/*.dist-info/**'),
    glob('**/*.egg-info/entry_points.txt'),
    // At the top of the repository these would be imported instead of the installed runner.
    glob('pytest.py'),
    glob('pytest/**'),
    glob('_pytest/**'),
    glob('py.py'),
    glob('pluggy.py'),
    glob('pluggy/**'),
  ];
}

/**
 * Everything a fresh grading copy takes from the pristine repository rather than from the agent: the test patch's
 * files, files named or placed like tests, the runner's files, and installed-package metadata.
 */
export function testPathspecs(testPatchFiles: readonly string[], runnerFiles: readonly string[]): string[] {
  return [
    ...testPatchFiles.map(literal),
    glob('**/test.py'),
    glob('**/test_*.py'),
    glob('**/*_test.py'),
    glob('**/tests/**'),
    glob('**/*.egg-info/**'),
    ...runnerPathspecs(runnerFiles),
  ];
}

/** The same rules as exclusions, for "everything else". */
export function excluding(pathspecs: readonly string[]): string[] {
  return pathspecs.map((p) => p.replace(/^:\(/, ':(exclude,'));
}

/** Bytecode and caches are not the agent's edits. */
export const NOISE_EXCLUDES = [':(exclude,glob)**/__pycache__/**', ':(exclude,glob)**/*.pyc', ':(exclude,glob)**/.pytest_cache/**'];

/** Config files that may hold pytest settings among packaging ones. */
export const SHARED_CONFIG_GLOBS = [glob('**/setup.cfg'), glob('**/pyproject.toml')];
