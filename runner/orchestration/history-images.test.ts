import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sandboxBackend } from '../../docker/backends.js';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import { testRunId } from '../../docker/testing.js';
import type { SandboxBackend } from '../../docker/types.js';
import { digitSumTask } from '../../scaffolds/testing/tasks.js';
import { loadBuiltinSwe } from '../../tasks/index.js';
import type { PreparedImageTask, SweTask } from '../../tasks/task.js';
import { historyImageName, historyImages } from './history-images.js';
import { runContainers } from '../testing/cli.js';

/** A logger whose warnings are kept. */
function warnings() {
  const seen: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => void seen.push((JSON.parse(line) as { msg: string }).msg) });
  return { log, seen };
}

describe('history images', () => {
  it('start a sample from its prepared image when none can be made: tried once per image, never a sample error', async () => {
    const runId = testRunId('history-fallback');
    const swe = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'))!;
    // An image with no repository at /testbed: hiding its history fails at the first step.
    const task: PreparedImageTask = { ...swe, repoSource: { type: 'image', image: PYTHON_IMAGE } };
    const options = { image: PYTHON_IMAGE, runId, sampleId: 's1' };
    const { log, seen } = warnings();
    const history = historyImages(sandboxBackend());
    const images = await Promise.all([history.imageFor(task, options, log), history.imageFor(task, { ...options, sampleId: 's2' }, log)]);
    expect(images).toEqual([PYTHON_IMAGE, PYTHON_IMAGE]);
    expect(await history.imageFor(task, options, log)).toBe(PYTHON_IMAGE);
    expect(seen).toEqual(['could not make a history image; samples hide the history themselves']);
    // The sandbox it was tried in is gone.
    expect(await runContainers(runId)).toEqual([]);
    await history.removeAll();
  });

  it('reuse the one an earlier process of the run made (a resumed run), and go once their last sample is finished', async () => {
    const runId = testRunId('history-resumed');
    const swe = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'))!;
    // Its prepared image has no repository: only a history image already there lets the sample start from one.
    const task: PreparedImageTask = { ...swe, repoSource: { type: 'image', image: PYTHON_IMAGE } };
    const backend = sandboxBackend();
    const name = historyImageName(runId, task);
    onTestFinished(() => backend.images.removeDerived!([name]));
    const earlier = await backend.create({ image: PYTHON_IMAGE, runId, sampleId: 'earlier' });
    try {
      await backend.images.derive!(earlier, name, {});
    } finally {
      await earlier.destroy();
    }
    const history = historyImages(backend);
    expect(await history.imageFor(task, { image: PYTHON_IMAGE, runId, sampleId: 's1' })).toBe(name);
    // Two samples of it are to run: the image stays until the second one is finished, and goes then.
    history.expect([task, digitSumTask('original'), task]);
    await history.finished(task);
    await history.finished(digitSumTask('original'));
    expect(await backend.images.list([name])).toEqual([name]);
    await history.finished(task);
    expect(await backend.images.list([name])).toEqual([]);
    await history.removeAll();
  });

  it('leave other tasks, and backends that cannot save images, as they are', async () => {
    const runId = testRunId('history-none');
    const swe = (await loadBuiltinSwe()).find((t) => t.id.startsWith('keyval'))!;
    const prepared: SweTask = { ...swe, repoSource: { type: 'image', image: 'prepared:latest' } };
    const options = { image: 'prepared:latest', runId, sampleId: 's1' };
    const backend = sandboxBackend();
    const { derive: _, ...images } = backend.images;
    const noDerive: SandboxBackend = { ...backend, images };
    expect(await historyImages(noDerive).imageFor(prepared, options)).toBe('prepared:latest');
    expect(await historyImages(backend).imageFor(digitSumTask('original'), { ...options, image: PYTHON_IMAGE })).toBe(PYTHON_IMAGE);
    expect(await historyImages(backend).imageFor(swe, { ...options, image: PYTHON_IMAGE })).toBe(PYTHON_IMAGE);
    expect(await runContainers(runId)).toEqual([]);
  });
});
