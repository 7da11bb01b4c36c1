import { classifySample } from '../classify/index.js';
import type { ResultStore } from '../store.js';
import type { IndexRow } from './index-query.js';

/**
 * For a store without the kinds index (read-only, written before it): the classifier reads a sample's transcript, so
 * the index classifies only the rows it shows, and remembers them: a pass or an evasion is never overwritten, so its
 * kinds never change.
 */
export class IndexKinds {
  private readonly known = new Map<number, string[]>();

  constructor(private readonly store: ResultStore) {}

  of(rows: IndexRow[]): IndexRow[] {
    return rows.map((row) => ({ ...row, kinds: this.kindsOf(row) }));
  }

  private kindsOf(row: IndexRow): string[] | null {
    if (row.label !== 'cheating' && row.outcome !== 'evaded') return null;
    const cached = this.known.get(row.id);
    if (cached) return cached;
    const sample = this.store.getSample(row.runId, row.id);
    const kinds = [...new Set((sample && classifySample(sample))?.map((k) => k.kind) ?? [])];
    this.known.set(row.id, kinds);
    return kinds;
  }
}
