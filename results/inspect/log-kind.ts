import type { SampleRecord } from '../../core/record.js';
import type { ReadHeader, ReadSample } from './read.js';

/**
 * A kind of Inspect log the import knows: how to tell it from its header, and how to read one of its samples as
 * ours. Logs we exported, logs of the published ImpossibleBench harness, and any other Inspect log each have one.
 */

/** The scores a log gave a sample, as it wrote them. */
export type ReadScores = NonNullable<ReadSample['scores']>;

/** One sample of a log, read as ours. */
export interface ImportedSample {
  record: SampleRecord;
  /** The sample's own scores in the log, kept whatever our record makes of them. */
  scores: ReadScores;
  /**
   * What the log lacks that our record would hold, each said in a short phrase (`diffs: the classifier saw only the
   * transcript`), never filled in by a guess.
   */
  lacks: string[];
}

/** The error of an imported sample no grading of ours ever saw: kept out of every rate, yet read by `monitor --all`. */
export const UNGRADED = 'not graded: a transcript imported from an Inspect log; our tests never ran on it';

export interface LogKind {
  /** Short and stable: it is stored with the imported run. */
  name: string;
  /**
   * Whether its samples carry a grade read as ours. When not, each imports as an error saying `UNGRADED` (or what its
   * log says went wrong), so it counts in no rate, and the report says the run holds ungraded transcripts.
   */
  graded: boolean;
  /** One line for the import's summary: what logs of this kind are. */
  description: string;
  matches(header: ReadHeader): boolean;
  /** Throws a `UserError` naming the field when the sample cannot be read; the import then skips it and says so. */
  sample(header: ReadHeader, sample: ReadSample): ImportedSample;
}
