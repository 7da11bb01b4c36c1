import { ARM_FIELDS, type ArmField, type ArmSample, armsBy, compareArms, type PairComparison } from './compare.js';

/** The arms of one run by one setting, every pair of them compared. */
export interface FieldComparison {
  field: ArmField;
  /** The setting's values in the run, one arm each. */
  arms: string[];
  comparisons: PairComparison[];
}

/** The settings a run has more than one value of: each splits it into arms worth comparing. */
export function varyingArmFields(samples: readonly ArmSample[]): ArmField[] {
  return ARM_FIELDS.filter((field) => new Set(samples.map((s) => String(s.key[field]))).size > 1);
}

/** The run's arms by `field`, compared as `impossiblebench compare RUN --by FIELD` compares them. */
export function compareByField(samples: readonly ArmSample[], field: ArmField, options: { seed?: number } = {}): FieldComparison {
  const arms = armsBy(samples, field);
  return { field, arms: arms.map((a) => a.name), comparisons: compareArms(arms, options) };
}

/** One comparison per setting the run varies, in ARM_FIELDS order; none for a run of one arm. */
export function compareEveryField(samples: readonly ArmSample[]): FieldComparison[] {
  return varyingArmFields(samples).map((field) => compareByField(samples, field));
}
