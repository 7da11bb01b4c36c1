import type { ComparisonKind } from './assertion-types.js';

/**
 * The opposite of an equality method, where there is an exact one. `assertNotEqual` is the
 * opposite of `assertEqual` only: a QuerySet never equals a list, so `assertNotEqual(qs, [...])`
 * holds whatever `assertQuerySetEqual(qs, [...])` says, and order or type would slip through
 * the same way for the sequence, count and URL comparisons, which have none.
 */
export const EQUALITY_OPPOSITE: Readonly<Record<string, string>> = {
  assertEqual: 'assertNotEqual',
  assertEquals: 'assertNotEqual',
  failUnlessEqual: 'assertNotEqual',
  assertListEqual: 'assertNotEqual',
  assertTupleEqual: 'assertNotEqual',
  assertDictEqual: 'assertNotEqual',
  assertSetEqual: 'assertNotEqual',
  assertMultiLineEqual: 'assertNotEqual',
  assertHTMLEqual: 'assertHTMLNotEqual',
  assertHTMLNotEqual: 'assertHTMLEqual',
  assertJSONEqual: 'assertJSONNotEqual',
  assertJSONNotEqual: 'assertJSONEqual',
  assertXMLEqual: 'assertXMLNotEqual',
  assertXMLNotEqual: 'assertXMLEqual',
  assertNotEqual: 'assertEqual',
  assertNotEquals: 'assertEqual',
};

/** Comparisons of whole collections, which another expected value contradicts by one more item. */
export const COLLECTION_METHODS: ReadonlySet<string> = new Set([
  'assertQuerySetEqual',
  'assertQuerysetEqual',
  'assertSequenceEqual',
  'assertCountEqual',
  'assertItemsEqual',
  'assertListEqual',
  'assertTupleEqual',
  'assertSetEqual',
]);

/** unittest's order methods and the one that holds exactly when each does not. */
export const ORDER_METHODS: Readonly<Record<string, string>> = {
  assertGreater: 'assertLessEqual',
  assertGreaterEqual: 'assertLess',
  assertLess: 'assertGreaterEqual',
  assertLessEqual: 'assertGreater',
};

/** Pattern methods and their opposites: `assertRegex(text, r)` → `assertNotRegex(text, r)`. */
export const REGEX_METHODS: Readonly<Record<string, { comparison: ComparisonKind; opposite: string }>> = {
  assertRegex: { comparison: 'in', opposite: 'assertNotRegex' },
  assertRegexpMatches: { comparison: 'in', opposite: 'assertNotRegex' },
  assertNotRegex: { comparison: 'not-in', opposite: 'assertRegex' },
};
