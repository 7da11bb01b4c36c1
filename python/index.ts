/** Python source through tree-sitter (parsing, literal values, the assertions of a test), for every room that reads Python. */
export { pythonParser, withPythonTree, firstSyntaxError, type Node, type Tree } from './parser.js';
export { literalValue, literalKind, pyEqual, isPureLiteral, type LiteralKind, type PyValue } from './literal.js';
export { findAssertions, nonLiteral, callsFunction, type ComparisonKind, type FoundAssertion, type Span, type Tolerance } from './assertions.js';
export {
  readCheck,
  readCheckSource,
  listCandidateAssertions,
  type CandidateAssertion,
  type CheckAssertion,
  type CheckFunction,
  type CheckReading,
} from './check.js';
