import type { SampleKey } from '../core/record.js';

/** The key's fields in a fixed order: the order of the stable string and of the store's columns. */
export const SAMPLE_KEY_FIELDS = [
  'model',
  'dataset',
  'split',
  'taskId',
  'scaffold',
  'access',
  'prompt',
  'maxAttempts',
  'epoch',
] as const satisfies readonly (keyof SampleKey)[];

/**
 * A stable, unambiguous string for a sample's coordinates: a JSON array of the fields in a fixed
 * order, so no separator inside a model or task name can make two keys collide.
 */
export function sampleKeyString(key: SampleKey): string {
  return JSON.stringify(SAMPLE_KEY_FIELDS.map((f) => key[f]));
}
