/** Naming how a sample cheated, from the evidence its record keeps. */
export { classifyRecord, classifyWith, isClassifiable, tricksWith } from './classify.js';
export { classifySample, tricksOf } from './sync.js';
export { countKinds, type KindCounts } from './summary.js';
export {
  CHEATING_KINDS,
  CheatingKindSchema,
  KIND_DESCRIPTIONS,
  KINDS_HELP,
  KindFindingSchema,
  type CheatingKind,
  type Evidence,
  type KindFinding,
} from './kinds.js';
