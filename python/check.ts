import { callsFunction, findAssertions, span, type ComparisonKind, type FoundAssertion, type Span, type Tolerance } from './assertions.js';
import type { LiteralKind } from './literal.js';
import { firstSyntaxError, kids, withPythonTree, type Node } from './parser.js';

/** One assertion of `check(candidate)` that tests a call of the candidate. */
export interface CheckAssertion extends FoundAssertion {
  /** The call of the candidate inside the tested side. */
  call: {
    span: Span;
    /** The text between the call's parentheses, e.g. `3, [1, 2]`. */
    args: string;
  };
}

/** The `check` function of a HumanEval-style test, read through the Python parser. */
export interface CheckFunction {
  /** The parameter the function under test arrives in (usually `candidate`). */
  param: string;
  /** The whole `def check(...)` (with decorators), and its body's first and last statements. */
  definition: Span;
  /** 1-based lines. */
  line: number;
  endLine: number;
  /** Top-level statements of the body, in order, with 1-based lines; comments are left out. */
  statements: { span: Span; line: number; endLine: number; indent: number; assigns: string[]; names: string[] }[];
  assertions: CheckAssertion[];
}

export type CheckReading = { ok: true; check: CheckFunction } | { ok: false; reason: string };

function nameOfDef(node: Node): string | undefined {
  const def = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
  return def?.type === 'function_definition' ? def.childForFieldName('name')?.text : undefined;
}

/** Names a statement binds: assignment targets, loop variables, `with ... as`, walrus, imports, defs. */
export function boundNames(stmt: Node): string[] {
  const targets: Node[] = [];
  const binders = [
    stmt,
    ...stmt
      .descendantsOfType([
        'assignment',
        'augmented_assignment',
        'for_statement',
        'for_in_clause',
        'as_pattern_target',
        'named_expression',
        'function_definition',
        'class_definition',
        'global_statement',
        'nonlocal_statement',
        'delete_statement',
        'import_statement',
        'import_from_statement',
      ])
      .filter((n): n is Node => n !== null),
  ];
  for (const a of binders) {
    switch (a.type) {
      case 'assignment':
      case 'augmented_assignment':
      case 'for_statement':
      case 'for_in_clause': {
        const left = a.childForFieldName('left');
        if (left) targets.push(left);
        break;
      }
      case 'named_expression':
      case 'function_definition':
      case 'class_definition': {
        const name = a.childForFieldName('name');
        if (name) targets.push(name);
        break;
      }
      case 'as_pattern_target':
      case 'global_statement':
      case 'nonlocal_statement':
      case 'delete_statement':
      case 'import_statement':
      case 'import_from_statement':
        targets.push(a);
        break;
      default:
    }
  }
  const out = new Set<string>();
  for (const t of targets) for (const name of usedNames(t)) out.add(name);
  return [...out];
}

/** Identifiers a node reads. */
export function usedNames(node: Node): string[] {
  const out = new Set<string>();
  if (node.type === 'identifier') out.add(node.text);
  for (const id of node.descendantsOfType('identifier')) if (id) out.add(id.text);
  return [...out];
}

/** Reads `def check(candidate)` from a parsed module. */
export function readCheck(root: Node, source: string): CheckReading {
  const syntax = root.hasError ? firstSyntaxError(root) : undefined;
  if (syntax) return { ok: false, reason: `the test does not parse (${syntax})` };
  const top = kids(root).find((n) => nameOfDef(n) === 'check');
  if (!top) return { ok: false, reason: 'the test defines no top-level `def check(...)`' };
  const def = top.type === 'decorated_definition' ? top.childForFieldName('definition')! : top;
  const params = kids(def.childForFieldName('parameters')!).filter((p) => p.type !== 'comment');
  const first = params[0];
  const param = first?.type === 'identifier' ? first.text : (first?.childForFieldName('name')?.text ?? first?.namedChild(0)?.text);
  if (!param) return { ok: false, reason: '`check` takes no parameter for the function under test' };
  const body = def.childForFieldName('body');
  const statements = (body ? kids(body) : [])
    .filter((c) => c.type !== 'comment')
    .map((s) => ({
      span: span(s),
      line: s.startPosition.row + 1,
      endLine: s.endPosition.row + 1,
      indent: s.startPosition.column,
      assigns: boundNames(s),
      names: usedNames(s),
    }));
  const assertions: CheckAssertion[] = [];
  for (const found of findAssertions(def, (n) => callsFunction(n, param) !== undefined)) {
    const subjectNode = root.descendantForIndex(found.subject.start, found.subject.end);
    const call = subjectNode ? callsFunction(subjectNode, param) : undefined;
    // `callsFunction` may land on an ancestor with the same span; search the statement for the call.
    const stmtNode = root.descendantForIndex(found.statement.start, found.statement.end);
    const theCall = call ?? (stmtNode ? callsFunction(stmtNode, param) : undefined);
    if (!theCall) continue;
    const argList = theCall.childForFieldName('arguments');
    const args = argList ? source.slice(argList.startIndex + 1, argList.endIndex - 1) : '';
    assertions.push({ ...found, call: { span: span(theCall), args } });
  }
  return {
    ok: true,
    check: { param, definition: span(top), line: top.startPosition.row + 1, endLine: top.endPosition.row + 1, statements, assertions },
  };
}

/** Parses a HumanEval-style test and reads its `check(candidate)` function. */
export function readCheckSource(source: string): Promise<CheckReading> {
  return withPythonTree(source, (tree) => readCheck(tree.rootNode, source));
}

/** What a cheating policy needs to hard-code answers: the tested inputs and the expected outputs. */
export interface CandidateAssertion {
  /** 1-based line of the assertion. */
  line: number;
  comparison: ComparisonKind;
  /** The call of the candidate, e.g. `candidate(3, [1, 2])`, and its argument text `3, [1, 2]`. */
  call: string;
  args: string;
  /** The expected-value text and its literal kind; absent for truthy/falsy checks. */
  expected?: { text: string; kind: LiteralKind };
  tolerance?: Tolerance;
  /** Inside a loop or other block rather than directly in `check`'s body. */
  nested: boolean;
}

/**
 * Lists the assertions of a `check(candidate)` test that test a call of the candidate, in source
 * order. Throws an Error with a one-line reason when the test does not parse or has no `check`.
 */
export async function listCandidateAssertions(testSource: string): Promise<CandidateAssertion[]> {
  const reading = await readCheckSource(testSource);
  if (!reading.ok) throw new Error(reading.reason);
  return reading.check.assertions.map((a) => ({
    line: a.line,
    comparison: a.comparison,
    call: a.call.span.text,
    args: a.call.args,
    expected: a.expected ? { text: a.expected.span.text, kind: a.expected.kind } : undefined,
    tolerance: a.tolerance,
    nested: a.nested,
  }));
}
