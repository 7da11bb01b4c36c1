import { z } from 'zod';
import { UserError } from '../../core/errors.js';
import { compareByField, varyingArmFields } from '../compare/by-field.js';
import { ARM_FIELDS, type ArmField, type DiscordantTask } from '../compare/compare.js';
import { CORRECTION, comparisonTable, methodNote, SPLIT_RATE } from '../compare/table.js';
import type { TextTable } from '../report-tables.js';
import type { ResultStore } from '../store.js';

/** A run's arms by one setting, compared, as the viewer's Compare page shows them. */
export interface RunComparison {
  run: string;
  /** The settings the run has more than one value of: the ones worth comparing by. */
  fields: ArmField[];
  /** The setting compared by; null when the run varies none. */
  by: ArmField | null;
  arms: string[];
  /** How the statistics were made, one paragraph. */
  note: string;
  /** Null when no two arms ran the same task. */
  table: TextTable | null;
  /** The p-value correction over several pairs of a split, when one was applied. */
  correction: string | null;
  /** Each pair's tasks that differ, with their samples. */
  pairs: { title: string; a: string; b: string; discordant: DiscordantTask[] }[];
}

const BySchema = z.enum(ARM_FIELDS).optional();

/** The `by` of a request, checked: one of the settings an arm can be told apart by. */
export function parseBy(value: string | null): ArmField | undefined {
  const parsed = BySchema.safeParse(value ?? undefined);
  if (!parsed.success) throw new UserError(`by: "${value}" is not a setting to compare by; use one of ${ARM_FIELDS.join(', ')}`);
  return parsed.data;
}

/** The run's arms by `by` (default: the first setting the run varies), every pair compared on the tasks both ran. */
export function runComparison(store: ResultStore, runId: string, by: ArmField | undefined): RunComparison {
  const run = store.getRun(runId);
  const samples = store.listSamples(run.id, { withTranscript: false });
  const fields = varyingArmFields(samples);
  const field = by ?? fields[0];
  const empty = { run: run.id, fields, arms: [], note: '', table: null, correction: null, pairs: [] };
  if (!field) return { ...empty, by: null };
  const { arms, comparisons } = compareByField(samples, field);
  if (comparisons.length === 0) return { ...empty, by: field, arms };
  return {
    run: run.id,
    fields,
    by: field,
    arms,
    note: methodNote(comparisons),
    table: comparisonTable(comparisons),
    correction: comparisons.some((c) => c.pAdjusted !== null) ? CORRECTION : null,
    pairs: comparisons
      .filter((c) => c.discordant.length > 0)
      .map((c) => ({ title: `${SPLIT_RATE[c.split]}: ${c.a} vs ${c.b}`, a: c.a, b: c.b, discordant: c.discordant })),
  };
}
