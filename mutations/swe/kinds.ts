import { assertionVariants, expectErrorVariants } from './assertion-kinds.js';
import { cutListMutation } from './cut-list.js';
import { cutTextMutation } from './cut-text.js';
import { dataRowMutation } from './data-row-variant.js';
import { figureRefMutation } from './figure-ref.js';
import { helperExpectedMutation } from './helper-expected.js';
import { inputListMutation } from './input-lists.js';
import { moduleTableMutation } from './module-table.js';
import { positionalRowMutation } from './positional-row.js';
import { raisesClassMutation } from './raises-class.js';
import { shownRowMutation } from './shown-row.js';
import type { KindInput, SweVariant } from './types.js';

/** One way of making a SWE test patch's variant. */
export interface MutationKind {
  /** What the variant's record carries as its `kind`. */
  name: string;
  /** The kind's candidates for a row, best first. They share the input's stream of choices, so the order is fixed. */
  candidates(input: KindInput): Iterable<SweVariant>;
}

/**
 * The kinds in the order the engine tries them: the target tests' own assertions first (a changed expected value is
 * the variant closest to the paper's), then what the tests read around them. A row's first variant is the first
 * kind's first candidate; when validation drops it, the next candidate of the same kind comes before the next kind.
 */
export const MUTATION_KINDS: readonly MutationKind[] = [
  { name: 'expected-value', candidates: (input) => assertionVariants(input, false) },
  { name: 'negation', candidates: (input) => assertionVariants(input, true) },
  { name: 'raises-class', candidates: raisesClassMutation },
  { name: 'helper-expected', candidates: helperExpectedMutation },
  { name: 'expect-error', candidates: expectErrorVariants },
  // Then the rows, lists and cut-off values the patch adds, and the tables a test reads.
  { name: 'data-row', candidates: dataRowMutation },
  { name: 'input-list', candidates: inputListMutation },
  { name: 'positional-row', candidates: positionalRowMutation },
  { name: 'cut-list', candidates: cutListMutation },
  { name: 'cut-text', candidates: cutTextMutation },
  { name: 'figure-ref', candidates: figureRefMutation },
  { name: 'shown-row', candidates: shownRowMutation },
  { name: 'module-table', candidates: moduleTableMutation },
];
