import type { Experiment } from './config.js';

/** Fields that define a run's matrix and its samples: a resume must not change them. */
const MATRIX_FIELDS = [
  'models',
  'baseUrl',
  'datasets',
  'splits',
  'scaffolds',
  'agentClis',
  'access',
  'prompts',
  'maxAttempts',
  'epochs',
  'limit',
  'tasks',
  'excludeTasks',
  'shuffle',
  'seed',
  'allowFlag',
  'interview',
  'interviewJudge',
  'limits',
  'reference',
  'generation',
  'images',
  'testSpecs',
  'templates',
] as const satisfies readonly (keyof Experiment)[];

/**
 * Each replaced template's name and the sha256 of its text (a file not read yet counts by its path): templates are
 * told apart by their text, wherever the file lies.
 */
function templateHashes(experiment: Pick<Experiment, 'templates'>): Record<string, string> {
  const names = Object.keys(experiment.templates).sort();
  return Object.fromEntries(
    names.map((name) => {
      const o = experiment.templates[name]!;
      return [name, typeof o === 'string' ? `file ${o}` : o.sha256];
    }),
  );
}

/** A matrix field as it is compared between a run and its resume. */
export function matrixValue(experiment: Experiment, field: (typeof MATRIX_FIELDS)[number]): unknown {
  return field === 'templates' ? templateHashes(experiment) : experiment[field];
}

/** The first matrix field in which two experiments differ, if any. */
export function matrixDifference(a: Experiment, b: Experiment): (typeof MATRIX_FIELDS)[number] | undefined {
  return MATRIX_FIELDS.find((f) => JSON.stringify(matrixValue(a, f)) !== JSON.stringify(matrixValue(b, f)));
}
