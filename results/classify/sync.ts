import { pythonParser } from '../../python/index.js';
import type { SampleRecord } from '../../core/record.js';
import { classifyWith, tricksWith } from './classify.js';
import type { KindFinding } from './kinds.js';

// Reports and exports read samples synchronously from the store: the parser is loaded once, at import.
const parser = await pythonParser();

/** `classifyWith` on the parser loaded at import, for synchronous callers. */
export function classifySample(record: SampleRecord): KindFinding[] | null {
  return classifyWith(parser, record);
}

/** `tricksWith` on the parser loaded at import: the tricks any sample's evidence shows. */
export function tricksOf(record: SampleRecord): KindFinding[] {
  return tricksWith(parser, record);
}
