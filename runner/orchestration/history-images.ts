import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { SandboxBackend, SandboxOptions } from '../../docker/types.js';
import { makeHistoryImage } from '../../tasks/env/history-image.js';
import { hasPreparedImage, type PreparedImageTask, type Task } from '../../tasks/task.js';

/** What a history image is labelled with besides its run: the prepared image and base commit it was made for. */
const SOURCE_LABEL = 'impossiblebench.history-of';

/**
 * A run's history images (see `tasks/env/history-image.ts`): one per prepared image and base commit, made when the
 * first sample of them starts (the others wait for it) and removed when the run's wiring closes. Where the backend
 * cannot make images, or making one fails, samples start from the prepared image and hide the history themselves.
 */
export interface HistoryImages {
  /** The image a task's sandbox starts from: its history image when it has one, else `options.image`. */
  imageFor(task: Task, options: SandboxOptions, log?: Logger): Promise<string>;
  /** The history image a task's sandbox would start from now, when one is made already (without waiting for one). */
  madeFor(task: Task): string | undefined;
  /** The samples about to run (one task each): a history image goes as soon as the last of its samples is finished. */
  expect(tasks: Iterable<Task>): void;
  /** A sample of `task` is finished and will not run again. */
  finished(task: Task): Promise<void>;
  /** Removes the images this run made. */
  removeAll(): Promise<void>;
}

/** What a history image is made of: a prepared image and a base commit. */
function historyKey(task: PreparedImageTask): string {
  return `${task.repoSource.image}\0${task.baseCommit}`;
}

/** A short name of a task's prepared image and base commit. */
function historyHash(task: PreparedImageTask): string {
  return createHash('sha256').update(historyKey(task)).digest('hex').slice(0, 12);
}

/** The name of a run's history image for a task's prepared image and base commit. */
export function historyImageName(runId: string, task: PreparedImageTask): string {
  return `impossiblebench/history:${runId}-${historyHash(task)}`;
}

export function historyImages(backend: SandboxBackend, signal?: AbortSignal): HistoryImages {
  const made = new Map<string, Promise<string | undefined>>();
  // The names of those made, once made.
  const ready = new Map<string, string>();
  // Samples still to finish, per prepared image and base commit, once the run said which will run.
  const left = new Map<string, number>();
  const make = async (task: PreparedImageTask, sandbox: SandboxOptions, log?: Logger): Promise<string | undefined> => {
    const name = historyImageName(sandbox.runId, task);
    const started = performance.now();
    try {
      // An earlier process of this run (resumed) made it already: the engine tags an image only once it is whole.
      if ((await backend.images.status(name)).state === 'present') return name;
      await makeHistoryImage(backend, task, {
        name,
        labels: { [SOURCE_LABEL]: historyKey(task).replace('\0', '@') },
        sandbox: { ...sandbox, sampleId: `history-${historyHash(task)}` },
        ...(signal ? { signal } : {}),
      });
      log?.info({ image: name, task: task.id, ms: Math.round(performance.now() - started) }, 'history image made');
      return name;
    } catch (err) {
      // Not a sample's failure: its own setup hides the history, as without history images.
      log?.warn({ task: task.id, err: String(err) }, 'could not make a history image; samples hide the history themselves');
      return undefined;
    }
  };
  return {
    async imageFor(task, sandbox, log) {
      if (!hasPreparedImage(task) || !backend.images.derive) return sandbox.image;
      const key = historyKey(task);
      let image = made.get(key);
      if (!image) {
        image = make(task, sandbox, log);
        made.set(key, image);
        void image.then((name) => name !== undefined && made.get(key) === image && ready.set(key, name));
      }
      return (await image) ?? sandbox.image;
    },
    madeFor(task) {
      return hasPreparedImage(task) ? ready.get(historyKey(task)) : undefined;
    },
    expect(tasks) {
      for (const task of tasks) {
        if (!hasPreparedImage(task)) continue;
        const key = historyKey(task);
        left.set(key, (left.get(key) ?? 0) + 1);
      }
    },
    async finished(task) {
      if (!hasPreparedImage(task)) return;
      const key = historyKey(task);
      const count = (left.get(key) ?? 0) - 1;
      if (count > 0) {
        left.set(key, count);
        return;
      }
      left.delete(key);
      const image = made.get(key);
      made.delete(key);
      ready.delete(key);
      const name = await image;
      // Its disk (the repository's packs) is given back while the run goes on to other tasks.
      if (name) await backend.images.removeDerived?.([name]).catch(() => undefined);
    },
    async removeAll() {
      const names = (await Promise.all(made.values())).filter((n): n is string => n !== undefined);
      made.clear();
      ready.clear();
      if (names.length) await backend.images.removeDerived?.(names);
    },
  };
}
