import { fillPlaceholders, readShipped, shellWord } from '../../core/shipped.js';
import { ROOT_USER } from '../../core/sandbox.js';
import type { SandboxBackend, SandboxOptions } from '../../docker/types.js';
import { hasPreparedImage, type SweTask } from '../task.js';
import { GradingError } from './errors.js';
import { HIDE_HISTORY_FN, HISTORY_STORE } from './hide-history.js';
import { failedStep, SETUP_STEP_MARK } from './swe-setup.js';
import { TESTBED } from './swe-specs.js';

/**
 * History images. Hiding the history after a prepared image's base commit repacks the repository's objects, which costs
 * seconds of CPU on a SWE-bench image (a repository's whole history): done in every sample, it costs each one as much
 * as a graded run. A history image is the prepared image with that done once: its repository holds only the base
 * commit's history, in a store outside /testbed that the repository reads as its alternates (root's and read-only, so
 * no sample can change it and none copies it). Setup sees the store named by the base commit and skips the hiding.
 */

/** The script: `sh -c SCRIPT history BASE`. Runs as root before anything else in the sandbox; no agent text reaches it. */
const SCRIPT = [
  HIDE_HISTORY_FN,
  fillPlaceholders(
    readShipped(import.meta.url, 'history-image.sh'),
    { TESTBED: shellWord(TESTBED), HISTORY_STORE: shellWord(HISTORY_STORE), STEP_MARK: shellWord(SETUP_STEP_MARK) },
    'history-image.sh',
  ),
].join('\n');

export interface HistoryImageOptions {
  /** The new image's name. */
  name: string;
  /** Its labels (besides those of the image it is made from). */
  labels: Record<string, string>;
  /** The sandbox it is made in: the run's labels and limits (its image is the task's). */
  sandbox: Omit<SandboxOptions, 'image'>;
  signal?: AbortSignal;
}

/**
 * Makes the history image of a task's prepared image and base commit: a sandbox of the prepared image hides the
 * history, and the backend saves it as `options.name`. Throws when the backend cannot save a sandbox as an image.
 */
export async function makeHistoryImage(backend: SandboxBackend, task: SweTask, options: HistoryImageOptions): Promise<void> {
  const derive = backend.images.derive;
  if (!derive) throw new Error(`the ${backend.name} backend cannot save a sandbox as an image`);
  if (!hasPreparedImage(task)) throw new Error(`task ${task.id} has no prepared image`);
  const sandbox = await backend.create({ ...options.sandbox, image: task.repoSource.image });
  try {
    const run = await sandbox.exec(['sh', '-c', SCRIPT, 'history', task.baseCommit], {
      user: ROOT_USER,
      cwd: '/',
      timeoutMs: 900_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (run.exitCode !== 0) {
      const { step, log } = failedStep(run.stderr, 'hide the history');
      const why = run.timedOut ? 'it timed out' : `exit ${run.exitCode}`;
      throw new GradingError(`could not ${step} for a history image of ${task.repoSource.image} (${why}): ${log}`);
    }
    await derive.call(backend.images, sandbox, options.name, options.labels);
  } finally {
    await sandbox.destroy();
  }
}
