import type { SampleKey } from '../../core/record.js';
import type { DryRunReport, ImageDownload } from '../orchestration/dry-run.js';
import { MIN_HISTORY, type ModelEstimate } from '../orchestration/estimate.js';
import { formatBytes } from '../orchestration/images-pull.js';
import type { PlannedSample } from '../orchestration/matrix.js';
import { imagesPullCommand, missingImagesText } from '../orchestration/missing-images.js';
import { formatDuration } from './progress.js';
import { alignedRows } from './table.js';

/** The columns of a cell: the sample key less the task and the epoch. */
const CELL_FIELDS = ['model', 'dataset', 'split', 'scaffold', 'access', 'prompt', 'maxAttempts'] as const satisfies readonly (keyof SampleKey)[];
const HEAD: Record<(typeof CELL_FIELDS)[number], string> = {
  model: 'model',
  dataset: 'dataset',
  split: 'split',
  scaffold: 'scaffold',
  access: 'access',
  prompt: 'prompt',
  maxAttempts: 'attempts',
};
/** More cells than this are summed up in one line: the axes above already say what the matrix holds. */
const MAX_CELL_ROWS = 60;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function formatUsd(usd: number): string {
  return `$${usd.toFixed(usd < 1 ? 4 : 2)}`;
}

/** `low-high`, or `unknown` where a figure is not known. */
function range(low: number | null, high: number | null, format: (n: number) => string): string {
  return low === null || high === null ? 'unknown' : `${format(low)}-${format(high)}`;
}

/** One row per cell (the columns that vary; the others on a line above): its samples to run, and planned when fewer. */
function cellLines(planned: readonly PlannedSample[], todo: readonly PlannedSample[]): string[] {
  const cellOf = (s: PlannedSample) => JSON.stringify(CELL_FIELDS.map((f) => s.key[f]));
  const cells = new Map<string, { key: SampleKey; planned: number; todo: number }>();
  for (const s of planned) {
    const cell = cells.get(cellOf(s)) ?? { key: s.key, planned: 0, todo: 0 };
    cells.set(cellOf(s), cell);
    cell.planned++;
  }
  for (const s of todo) cells.get(cellOf(s))!.todo++;
  const rows = [...cells.values()];
  const varying = CELL_FIELDS.filter((f) => new Set(rows.map((r) => String(r.key[f]))).size > 1);
  const fixed = CELL_FIELDS.filter((f) => !varying.includes(f));
  const out = [`cells: ${rows.length}`];
  if (rows.length > 0 && fixed.length) out.push(`  ${fixed.map((f) => `${HEAD[f]}: ${String(rows[0]!.key[f])}`).join('   ')}`);
  const body = rows
    .slice(0, MAX_CELL_ROWS)
    .map((r) => [...varying.map((f) => String(r.key[f])), r.todo === r.planned ? String(r.todo) : `${r.todo} of ${r.planned}`]);
  if (varying.length) out.push(...alignedRows([...varying.map((f) => HEAD[f]), 'samples'], body).map((l) => `  ${l}`));
  if (rows.length > MAX_CELL_ROWS) out.push(`  … and ${rows.length - MAX_CELL_ROWS} more cells`);
  return out;
}

function imageLines(report: DryRunReport): string[] {
  const images: ImageDownload = report.images;
  const out: string[] = [];
  if (images.engineError) out.push(`images: the container engine could not say which it has (${images.engineError}); every task is counted`);
  if (images.missing.length === 0) return images.engineError ? out : ['images: every image the tasks need is present'];
  out.push(...missingImagesText(images.missing, 'so their tasks are left out of the plan above'));
  const pulled = new Set(images.missing.map((m) => m.image)).size - images.built.length;
  if (pulled > 0) {
    const known = pulled - images.unknown.length;
    const size = known > 0 ? `${formatBytes(images.bytes)} for ${plural(known, 'image')}` : '';
    const unknown = images.unknown.length > 0 ? `${size ? `; ${images.unknown.length} more: ` : ''}size unknown: registry unreachable` : '';
    out.push(`  download: ${size}${unknown}`);
  }
  if (images.built.length > 0) out.push(`  built here, not pulled: ${images.built.join(', ')} (impossiblebench images build)`);
  out.push(`  get them with: ${imagesPullCommand(report.experiment)}`);
  const all = report.withImages;
  if (all)
    out.push(
      `  with them: ${all.planned.length} samples planned, ${all.todo.length} to run, ${totalLine(all.estimates, report.experiment.concurrency)}`,
    );
  return out;
}

/**
 * The models' total cost and wall time (their sample time over the samples run at once), each a range of what is
 * known, and which models' figures are not.
 */
function totalLine(estimates: readonly ModelEstimate[], concurrency: number): string {
  const sum = (pick: (e: ModelEstimate) => number | null) => estimates.reduce((n, e) => n + (pick(e) ?? 0), 0);
  const unknown = (pick: (e: ModelEstimate) => number | null) => {
    const names = estimates.filter((e) => pick(e) === null).map((e) => e.model);
    return names.length > 0 ? ` + unknown for ${names.join(', ')}` : '';
  };
  const cost = `${formatUsd(sum((e) => e.costLow))}-${formatUsd(sum((e) => e.costHigh))}${unknown((e) => e.costLow)}`;
  const wall = `${formatDuration(sum((e) => e.secondsLow) / concurrency)}-${formatDuration(sum((e) => e.secondsHigh) / concurrency)}`;
  return `${cost}; about ${wall}${unknown((e) => e.secondsLow)} of wall time with ${concurrency} samples at once`;
}

/** The estimate per model, and the total. */
function estimateLines(estimates: readonly ModelEstimate[], concurrency: number): string[] {
  if (estimates.length === 0) return ['estimate: no samples to run'];
  const body = estimates.map((e) => [
    e.model,
    String(e.samples),
    range(e.costLow, e.costHigh, formatUsd),
    range(e.secondsLow, e.secondsHigh, formatDuration),
    e.source,
  ]);
  const out = ['estimate per model (a low-high range: cost in USD, sample time summed over its samples):'];
  out.push(...alignedRows(['model', 'samples', 'cost', 'sample time', 'from'], body).map((l) => `  ${l}`));
  out.push(`total: ${totalLine(estimates, concurrency)}`);
  out.push(
    `  earlier samples (${MIN_HISTORY} or more in the store, of the model or else of its sort, scripted or real): ` +
      'the 10th to 90th percentile of their cost and time per sample, widened to hold the mean; defaults: planning figures per kind of task (README)',
  );
  return out;
}

/** The dry run's report, as `run --dry-run` prints it. */
export function dryRunText(report: DryRunReport): string {
  const { experiment: e, planned, todo } = report;
  const tasks = new Set(planned.map((s) => `${s.key.dataset}\u0000${s.key.taskId}`)).size;
  const out = ['dry run: nothing was run, no store was written, no container was started'];
  out.push(
    `matrix: ${plural(e.models.length, 'model')} × ${plural(e.datasets.length, 'dataset')} × ${plural(e.splits.length, 'split')} × ` +
      `${plural(e.scaffolds.length, 'scaffold')} × ${plural(e.access.length, 'access mode')} × ${plural(e.prompts.length, 'prompt')} × ` +
      `${plural(e.maxAttempts.length, 'attempt limit')} × ${plural(e.epochs, 'epoch')}, on ${plural(tasks, 'task')}`,
  );
  const skipped = planned.length - todo.length;
  out.push(
    `samples: ${planned.length} planned, ${todo.length} to run` +
      (report.resumes ? ` (resuming run ${report.resumes}: ${skipped} it holds already are skipped)` : ''),
  );
  out.push(...cellLines(planned, todo));
  if (e.splits.some((s) => s !== 'original'))
    out.push('  impossible variants are made here but not validated: the run validates them first, and may replace or leave out a few');
  out.push(...imageLines(report));
  out.push(...estimateLines(report.estimates, e.concurrency));
  return `${out.join('\n')}\n`;
}
