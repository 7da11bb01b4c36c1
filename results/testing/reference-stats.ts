import { execFileSync } from 'node:child_process';

/** Debian's own Python, where apt puts python3-statsmodels and python3-scipy (a `python3` earlier on PATH may be another). */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/**
 * Whether the reference implementations the statistics are checked against can run: CI installs them, so there they
 * always run (and fail if missing); elsewhere their absence is said once and those checks are skipped.
 */
export function referenceStatsAvailable(): boolean {
  try {
    execFileSync(DEBIAN_PYTHON, ['-c', 'import statsmodels, scipy, numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI) return true;
    console.warn(
      `skipping the checks against statsmodels and numpy: ${DEBIAN_PYTHON} lacks them (apt-get install -y python3-statsmodels python3-scipy)`,
    );
    return false;
  }
}

/** Runs a Python script of Debian's Python with `input` as JSON on stdin; its stdout read as JSON. */
export function referencePython(script: string, input: unknown): unknown {
  return JSON.parse(execFileSync(DEBIAN_PYTHON, ['-c', script], { input: JSON.stringify(input), encoding: 'utf8' }));
}
