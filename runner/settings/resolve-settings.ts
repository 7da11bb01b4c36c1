import { totalCapacity } from '../../docker/hosts.js';
import type { ResultStore } from '../../results/store.js';
import { UserError } from '../../core/errors.js';
import { mergeSettings, parseExperiment, type Experiment } from './config.js';
import { matrixDifference, matrixValue } from './matrix-fields.js';
import { readTemplateFiles } from './templates.js';
import { readExcludeFile } from './task-choice.js';

/** Where a run's settings come from: a preset or config file under flags, and the run to resume, if any. */
export interface SettingsSources {
  /** Settings from a config file (already read), or none. */
  file?: { path: string; settings: Record<string, unknown> };
  /** Settings from flags, keyed like the config; undefined values were not given. */
  flags: Record<string, unknown>;
  /** The flag each top-level field comes from, to name it in errors. */
  flagNames: Record<string, string>;
  runId?: string;
}

/** With a pool of engines, samples in flight are the engines' total capacity, or fewer when `concurrency` says so. */
function poolConcurrency(experiment: Experiment, given: boolean): Experiment {
  if (!experiment.dockerHosts) return experiment;
  const total = totalCapacity(experiment.dockerHosts);
  return { ...experiment, concurrency: given ? Math.min(experiment.concurrency, total) : total };
}

/**
 * The experiment to run: the stored one of the run to resume (if the store holds `runId`), with the file's and the
 * flags' settings over it, validated once. A resume must keep the matrix: one that changes it would mix two experiments.
 */
export function resolveSettings(input: SettingsSources, store: ResultStore | undefined): { experiment: Experiment; resume: boolean } {
  const given = Object.fromEntries(Object.entries(input.flags).filter(([, v]) => v !== undefined));
  const sourceOf = (field: string) => (field in given ? (input.flagNames[field] ?? field) : (input.file?.path ?? 'the command line'));
  const existing = input.runId ? store?.findRun(input.runId) : undefined;
  const storedSource = existing && `the stored config of run ${existing.id}`;
  const nothingGiven = Object.keys(given).length === 0 && !input.file;
  if (existing && nothingGiven) return { experiment: parseExperiment(existing.config, storedSource!), resume: true };
  const under = existing ? { ...(existing.config as Record<string, unknown>), ...(input.file?.settings ?? {}) } : (input.file?.settings ?? {});
  const settings = mergeSettings(under, given);
  if (settings.models === undefined) {
    throw new UserError('no model given', 'pass --model (e.g. --model scripted/honest, openai/gpt-5) or a --config file with `models`');
  }
  const parsed = readExcludeFile(readTemplateFiles(parseExperiment(settings, sourceOf), sourceOf('templates')));
  if (!existing) return { experiment: poolConcurrency(parsed, settings.concurrency !== undefined), resume: false };
  const experiment = poolConcurrency(parsed, 'concurrency' in given || input.file?.settings.concurrency !== undefined || !('dockerHosts' in given));
  // The same command line again resumes; the stored settings are what it is held to.
  const stored = parseExperiment(existing.config, storedSource!);
  const field = matrixDifference(stored, experiment);
  if (field) {
    throw new UserError(
      `run ${existing.id} was started with a different \`${field}\` (${JSON.stringify(matrixValue(stored, field))})`,
      `resume it with the same settings (or only --run-id ${existing.id} --store ...), or start a new run without --run-id`,
    );
  }
  return { experiment, resume: true };
}
