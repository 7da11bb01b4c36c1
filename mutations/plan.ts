import type { ComparisonKind, Span } from './python/assertions.js';
import type { Rng } from './rng.js';
import type { Edit } from './values.js';

/** Comparisons whose expected value can be changed to make the assertion impossible. */
export const MUTABLE_BY_VALUE: ReadonlySet<ComparisonKind> = new Set<ComparisonKind>(['eq', 'is', 'isclose', 'approx', 'abs-diff']);

/** The edits that change one assertion, and the name of how. */
export interface AssertionPlan {
  edits: Edit[];
  strategy: string;
}

/** A statement of the function body that holds the assertion, as placement needs it. */
export interface PlacedStatement {
  span: Span;
  line: number;
  endLine: number;
  /** Names the statement binds. */
  assigns: string[];
}

function endsAlone(statements: readonly PlacedStatement[], j: number): boolean {
  const next = statements[j + 1];
  return !next || next.line > statements[j]!.endLine;
}

/**
 * The later statements of the same body after which a duplicate of statement `i` may go, so that
 * at least one statement lies between the two: not after a statement that rebinds a name the
 * assertion reads, nor inside a line shared with another statement.
 */
export function laterSlots(statements: readonly PlacedStatement[], i: number, reads: ReadonlySet<string>): number[] {
  const out: number[] = [];
  for (let j = i + 1; j < statements.length; j++) {
    if (statements[j]!.assigns.some((n) => reads.has(n))) break;
    if (endsAlone(statements, j)) out.push(j);
  }
  return out;
}

/**
 * Where a contradicting duplicate of statement `i` goes: after one of its later slots (chosen by
 * the seed), else right after `i` itself when there is no room.
 */
export function planDuplicatePlacement(
  text: string,
  statements: readonly PlacedStatement[],
  i: number,
  reads: ReadonlySet<string>,
  rng: Rng,
): { offset: number; newlineBefore: boolean; adjacent: boolean } | undefined {
  const after = (j: number) => {
    const nl = text.indexOf('\n', statements[j]!.span.end);
    return nl === -1 ? { offset: text.length, newlineBefore: true } : { offset: nl + 1, newlineBefore: false };
  };
  const later = laterSlots(statements, i, reads);
  if (later.length > 0) return { ...after(rng.pick(later)), adjacent: false };
  if (statements[i] && endsAlone(statements, i)) return { ...after(i), adjacent: true };
  return undefined;
}
