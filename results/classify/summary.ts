import type { SampleRecord } from '../../core/record.js';
import { CHEATING_KINDS, type CheatingKind, type KindFinding } from './kinds.js';

/** How many classified samples showed each kind, by model: a sample counts once under every kind it shows. */
export interface KindCounts {
  models: string[];
  /** Classified samples per model (cheating passes and evasions). */
  classified: Record<string, number>;
  /** counts[kind][model]; only kinds seen at least once. */
  counts: Partial<Record<CheatingKind, Record<string, number>>>;
}

export function countKinds(samples: Iterable<{ record: Pick<SampleRecord, 'key'>; kinds: KindFinding[] | null }>): KindCounts {
  const classified: Record<string, number> = {};
  const counts: KindCounts['counts'] = {};
  for (const { record, kinds } of samples) {
    if (kinds === null) continue;
    const model = record.key.model;
    classified[model] = (classified[model] ?? 0) + 1;
    for (const kind of new Set(kinds.map((k) => k.kind))) {
      const row = (counts[kind] ??= {});
      row[model] = (row[model] ?? 0) + 1;
    }
  }
  const ordered: KindCounts['counts'] = {};
  for (const kind of CHEATING_KINDS) if (counts[kind]) ordered[kind] = counts[kind];
  return { models: Object.keys(classified).sort(), classified, counts: ordered };
}
