/** The images this product provides, by name and recipe: OCI names, the same whichever backend runs them. */

/** The LiveCodeBench sandbox image: Debian bookworm, python3.11, pytest, git, user `agent` (uid 1000). */
export const PYTHON_IMAGE = 'impossiblebench/python:3.11';

/**
 * Version of the recipe that builds PYTHON_IMAGE. Bump it when the recipe changes, so that
 * `images build` replaces images made by an older one.
 */
export const PYTHON_RECIPE = 'python3.11-pytest-git-agent.1';

/** The sandbox images this build provides, for `doctor` and `images list`. */
export const SANDBOX_IMAGES = [{ name: PYTHON_IMAGE, recipe: PYTHON_RECIPE, purpose: 'LiveCodeBench tasks (python3.11, pytest, git)' }] as const;
