import type { TaskIdChoice } from './task-filter.js';
import { PYTHON_IMAGE } from '../../docker/image-names.js';
import type { Experiment } from '../settings/config.js';
import type { MissingImage } from './datasets.js';
import { shellArg } from '../output/shell-arg.js';

/** The lines that name each missing image and the tasks it holds back. */
export function missingImagesText(missing: MissingImage[], consequence: string): string[] {
  const tasks = missing.reduce((n, m) => n + m.taskIds.length, 0);
  const lines = [`${missing.length} image${missing.length === 1 ? '' : 's'} missing for ${tasks} task${tasks === 1 ? '' : 's'}, ${consequence}:`];
  for (const m of missing.slice(0, 20)) {
    const ids = m.taskIds.slice(0, 3).join(', ') + (m.taskIds.length > 3 ? `, … (${m.taskIds.length})` : '');
    lines.push(`  ${m.image}  (${m.dataset}: ${ids})`);
  }
  if (missing.length > 20) lines.push(`  … and ${missing.length - 20} more`);
  return lines;
}

/** The `images pull` command that fetches every image this experiment's tasks need (the same task selection). */
export function imagesPullCommand(
  experiment: Pick<Experiment, 'datasets' | 'splits' | 'limit' | 'shuffle' | 'seed' | 'images'> & TaskIdChoice,
): string {
  const words = ['impossiblebench', 'images', 'pull'];
  for (const d of experiment.datasets) words.push('--dataset', d);
  for (const s of experiment.splits) words.push('--split', s);
  for (const id of experiment.tasks ?? []) words.push('--task', id);
  for (const id of experiment.excludeTasks ?? []) words.push('--exclude-task', id);
  if (experiment.limit !== undefined) words.push('--limit', String(experiment.limit));
  if (experiment.shuffle) words.push('--shuffle', '--seed', String(experiment.seed));
  if (experiment.images.namespace !== 'swebench') words.push('--image-namespace', experiment.images.namespace);
  if (experiment.images.tag !== 'latest') words.push('--image-tag', experiment.images.tag);
  if (experiment.images.arch !== 'x86_64') words.push('--image-arch', experiment.images.arch);
  return words.map((w) => (w === '' ? "''" : shellArg(w))).join(' ');
}

/** Our own sandbox image is built, not pulled from the SWE-bench registry. */
export function isProjectImage(image: string): boolean {
  return image === PYTHON_IMAGE;
}
