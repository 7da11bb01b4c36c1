import { BINARY_OPPOSITE, CLOSE_METHODS, EQ_METHODS, NE_METHODS, NOT_A_COMPARISON, RAISES, UNARY } from '../../python/assertion-reading.js';
import { OWN_KIND_METHODS } from '../own-kind.js';

/**
 * The assertion methods unittest's and django's test cases define, and those the assertion
 * readers know by name: each has its own meaning for its arguments, read elsewhere, so none is
 * taken for a project's own helper.
 */
export const KNOWN_ASSERTIONS: ReadonlySet<string> = new Set([
  ...EQ_METHODS,
  ...NE_METHODS,
  ...CLOSE_METHODS,
  ...Object.keys(UNARY),
  ...Object.keys(BINARY_OPPOSITE),
  ...Object.keys(RAISES),
  ...NOT_A_COMPARISON,
  ...OWN_KIND_METHODS,
  // unittest.TestCase
  'assertNotAlmostEqual',
  'assertNotAlmostEquals',
  'assertGreater',
  'assertGreaterEqual',
  'assertLess',
  'assertLessEqual',
  'assertRegex',
  'assertNotRegex',
  'assertRegexpMatches',
  'assertNotRegexpMatches',
  'assertDictContainsSubset',
  'assertWarnsRegex',
  // django's SimpleTestCase, TransactionTestCase and TestCase
  'assertFormError',
  'assertFormSetError',
  'assertFormsetError',
  'assertFieldOutput',
  'assertInHTML',
  'assertNotInHTML',
  'assertHTMLNotEqual',
  'assertJSONNotEqual',
  'assertXMLNotEqual',
  'assertNumQueries',
  'assertRedirects',
  'assertURLEqual',
]);
