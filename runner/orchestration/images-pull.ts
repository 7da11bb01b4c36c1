import { Steps } from '../../docker/build/progress.js';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { imageLayerSizes, type LayerSizes } from '../../docker/registry.js';
import type { PullProgress, SandboxBackend } from '../../docker/types.js';
import { tasksByImage } from '../../tasks/images.js';
import { loadDataset } from '../../tasks/load.js';
import type { Task } from '../../tasks/task.js';
import type { Variant } from '../../core/record.js';
import type { Experiment } from '../settings/config.js';
import { checkTaskIds, rememberKnownIds } from './task-filter.js';
import { selectTaskIds, type DatasetTasks } from './matrix.js';
import { formatDuration } from '../output/progress.js';

/** What a run of this selection needs: each image, its tasks, and whether the engine has it. */
export interface ImageNeed {
  image: string;
  taskIds: string[];
  present: boolean;
}

export type ImageSelection = Pick<Experiment, 'datasets' | 'splits' | 'limit' | 'shuffle' | 'seed' | 'images' | 'tasks' | 'excludeTasks'>;

/** The images the tasks of a selection run in (the same tasks `run` picks with the same flags). */
export async function neededImages(selection: ImageSelection, say: (line: string) => void, backend: SandboxBackend): Promise<ImageNeed[]> {
  const tasks: Task[] = [];
  const loadedSets = new Map<string, DatasetTasks>();
  for (const dataset of selection.datasets) {
    const loaded = await loadDataset(dataset, { splits: selection.splits, images: selection.images, say });
    const bySplit: DatasetTasks = new Map();
    for (const t of loaded) bySplit.set(t.variant, [...(bySplit.get(t.variant as Variant) ?? []), t]);
    rememberKnownIds(
      bySplit,
      loaded.map((t) => t.id),
    );
    loadedSets.set(dataset, bySplit);
    const picked = new Set(selectTaskIds(bySplit, selection));
    const chosen = loaded.filter((t) => picked.has(t.id));
    say(`${dataset}: ${picked.size} task${picked.size === 1 ? '' : 's'}`);
    tasks.push(...chosen);
  }
  checkTaskIds(selection, loadedSets);
  const byImage = tasksByImage(tasks);
  const missing = new Set(await backend.images.missing(byImage.keys()));
  return [...byImage].map(([image, list]) => ({ image, taskIds: [...new Set(list.map((t) => t.id))], present: !missing.has(image) }));
}

/** Download sizes from the registries: unique layers summed, so layers the images share count once. */
export async function downloadSize(images: string[], arch: string, signal?: AbortSignal): Promise<{ bytes: number; unknown: string[] }> {
  const layers = new Map<string, number>();
  const unknown: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < images.length) {
      const image = images[next++]!;
      let sizes: LayerSizes;
      try {
        sizes = await imageLayerSizes(image, { arch, ...(signal ? { signal } : {}) });
      } catch {
        unknown.push(image);
        continue;
      }
      for (const l of sizes.layers) layers.set(l.digest, l.size);
      layers.set(`${image} config`, sizes.configSize);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, images.length) }, worker));
  return { bytes: [...layers.values()].reduce((a, b) => a + b, 0), unknown };
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value >= 100 || unit === 0 ? 0 : 1)} ${units[unit]}`;
}

export interface PullOutcome {
  pulled: string[];
  failed: { image: string; error: string }[];
  /** Bytes the pulled images take on the engine's disk, unpacked. */
  diskBytes: number;
}

/**
 * Gets every missing image: the project's own image by `images build`'s route (present, else pulled and extended,
 * else built offline), the rest pulled from their registries, `concurrency` at a time. A failed pull is reported and
 * the others go on. On a terminal one line shows the bytes so far; elsewhere one line per image.
 */
export async function pullMissing(
  images: string[],
  options: { backend: SandboxBackend; concurrency: number; out: NodeJS.WriteStream; plain: boolean; totalBytes?: number; signal?: AbortSignal },
): Promise<PullOutcome> {
  const { backend } = options;
  const outcome: PullOutcome = { pulled: [], failed: [], diskBytes: 0 };
  const own = images.filter((i) => i === PYTHON_IMAGE);
  const registry = images.filter((i) => i !== PYTHON_IMAGE);
  for (const image of own) {
    try {
      await backend.images.build({ steps: new Steps(options.out), ...(options.signal ? { signal: options.signal } : {}) });
      outcome.pulled.push(image);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      outcome.failed.push({ image, error: (err as Error).message });
    }
  }
  const tty = options.out.isTTY === true && !options.plain;
  const started = Date.now();
  const live = new Map<string, PullProgress>();
  let doneBytes = 0;
  let finished = 0;
  const line = () => {
    const now = doneBytes + [...live.values()].reduce((n, p) => n + p.downloadedBytes, 0);
    const rate = now / Math.max(1, (Date.now() - started) / 1000);
    const total = options.totalBytes ? ` of ${formatBytes(options.totalBytes)}` : '';
    const eta = options.totalBytes && rate > 0 ? `, eta ${formatDuration(Math.max(0, options.totalBytes - now) / rate)}` : '';
    return `pulling ${finished}/${registry.length}: ${formatBytes(now)}${total} at ${formatBytes(rate)}/s${eta}`;
  };
  const render = () => {
    if (tty) options.out.write(`\r\x1b[2K${line().slice(0, (options.out.columns || 100) - 1)}`);
  };
  const ticker = tty ? setInterval(render, 500) : undefined;
  ticker?.unref();
  let next = 0;
  const worker = async () => {
    while (next < registry.length) {
      options.signal?.throwIfAborted();
      const image = registry[next++]!;
      const t0 = Date.now();
      try {
        let onto = '';
        await backend.images.pull(image, {
          onProgress: (p) => live.set(image, p),
          onEngine: (engine) => {
            onto = ` onto ${engine}`;
          },
          ...(options.signal ? { signal: options.signal } : {}),
        });
        const size = (await backend.images.status(image)).sizeBytes ?? 0;
        outcome.pulled.push(image);
        outcome.diskBytes += size;
        finished++;
        doneBytes += live.get(image)?.downloadedBytes ?? 0;
        if (!tty)
          options.out.write(
            `[${finished}/${registry.length}] pulled ${image}${onto} (${formatBytes(size)} on disk, ${formatDuration((Date.now() - t0) / 1000)})\n`,
          );
      } catch (err) {
        if (options.signal?.aborted) throw err;
        finished++;
        outcome.failed.push({ image, error: (err as Error).message });
        if (tty) options.out.write('\r\x1b[2K');
        options.out.write(`[${finished}/${registry.length}] failed ${image}: ${(err as Error).message}\n`);
      } finally {
        live.delete(image);
        render();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, registry.length)) }, worker));
  } finally {
    if (ticker) clearInterval(ticker);
    if (tty && registry.length > 0) options.out.write(`\r\x1b[2K${line()}\n`);
  }
  return outcome;
}
