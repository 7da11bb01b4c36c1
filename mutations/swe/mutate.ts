import type { Parser, Tree } from 'web-tree-sitter';
import type { MutationType } from '../outcome.js';
import { planExpectedChange, planNegation, plausibleFrom, type AssertionPlan } from '../plan.js';
import { findAssertions, nonLiteral, type FoundAssertion, type Span } from '../../python/assertions.js';
import { isPureLiteral, literalValue } from '../../python/literal.js';
import { pythonParser, type Node } from '../../python/parser.js';
import { rngFor, type Rng } from '../rng.js';
import { regionFunctions, regionOf, type Region, type RegionFunction } from './fragment.js';
import { OWN_KIND_METHODS, ownKindPlan } from '../own-kind.js';
import { applyPlan, slotsAfter, type Candidate } from './edit.js';
import { expectErrorChange } from './expect-error.js';
import { isPythonTestFile, parsePatch, PatchError, type Patch, type FilePatch } from './patch.js';
import { fileMayHold, parseTestId, type TestRef } from './test-id.js';
import { resolveDescription } from './docstring.js';
import { patchedFiles } from './apply.js';
import { fullContextPatch, narrowPatch } from './whole-file.js';
import { dataRowMutation } from './data-row-variant.js';
import { inputListMutation } from './input-lists.js';
import { positionalRowMutation } from './positional-row.js';
import { cutListMutation } from './cut-list.js';
import { enclosingTestRegions } from './enclosing-test.js';
import { cutTextMutation } from './cut-text.js';
import { figureRefMutation } from './figure-ref.js';
import { shownRowMutation } from './shown-row.js';
import { raisesClassMutation } from './raises-class.js';
import { moduleTableMutation } from './module-table.js';
import { helperExpectedMutation } from './helper-expected.js';
import { assignmentOf, parameterOf, rootName } from './expectation-source.js';

import type { KindInput, SweMutation, SweMutationInput } from './types.js';

export type { SweMutation, SweMutationInput } from './types.js';

const EXPRESSION_OK = new Set(['eq', 'isclose', 'approx', 'abs-diff']);

function matches(ref: TestRef, fn: RegionFunction): boolean {
  if (ref.description !== undefined) return fn.description === ref.description;
  if (fn.name !== ref.name) return false;
  // When the region shows the enclosing class, it must be the test's.
  const cls = ref.classes[ref.classes.length - 1];
  const seen = fn.classes[fn.classes.length - 1];
  return !cls || !seen || cls === seen;
}

/** The statement node an assertion was read from. */
function statementNode(tree: Tree, a: FoundAssertion): Node | undefined {
  let n: Node | null = tree.rootNode.descendantForIndex(a.statement.start, a.statement.end);
  while (
    n &&
    !(
      n.startIndex === a.statement.start &&
      n.endIndex === a.statement.end &&
      (n.type === 'assert_statement' || n.type === 'expression_statement' || n.type === 'with_statement')
    )
  )
    n = n.parent;
  return n ?? undefined;
}

/**
 * Where a named expectation's value is read from. A value the expectation only reads into
 * (`created.username`) is an object made for the test: the arguments of the calls that made it
 * are inputs to the code, not expected values, so they never change.
 */
function expectationVia(fn: Node, ref: TestRef, root: Node, use: Node, asserts: Span[], expected: Span): Candidate['via'] {
  const via = assignmentOf(fn, root, use, asserts) ?? parameterOf(fn, ref.param, root, asserts);
  const whole = root.startIndex === expected.start && root.endIndex === expected.end;
  return via && !whole && via.value.descendantsOfType('call').length > 0 ? undefined : via;
}

function candidatesFor(ref: TestRef, regions: { region: Region; tree: Tree }[]): Candidate[] {
  const out: Candidate[] = [];
  for (const { region, tree } of regions) {
    if (!fileMayHold(ref, region.file.newPath)) continue;
    for (const fn of regionFunctions(region, tree)) {
      if (!matches(ref, fn)) continue;
      const found = findAssertions(fn.node, nonLiteral, { rightIsExpected: true, orderComparisons: true });
      const asserts = found.map((a) => a.statement);
      let seenAdded = false;
      for (const a of found) {
        const node = statementNode(tree, a);
        if (!node || node.hasError || node.startPosition.row < region.prefixLines) continue;
        const rows: number[] = [];
        for (let r = node.startPosition.row; r <= node.endPosition.row; r++) rows.push(r);
        const added = rows.some((r) => region.lines[r - region.prefixLines]?.op === '+');
        const literal = !!a.expected && isPureLiteral(a.expected.value);
        const root = !literal && a.expected && EXPRESSION_OK.has(a.comparison) ? rootName(tree, a.expected.span) : undefined;
        const via = root ? expectationVia(fn.node, ref, root, node, asserts, a.expected!.span) : undefined;
        const ownKind = OWN_KIND_METHODS.has(a.method ?? '');
        const tier = (literal ? 0 : (a.expected && EXPRESSION_OK.has(a.comparison)) || ownKind ? 2 : 4) + (added ? 0 : 1);
        const firstAdded = added && !seenAdded;
        seenAdded ||= added;
        out.push({ region, tree, fn, assertion: a, node, tier, added, firstAdded });
        if (via) out.push({ region, tree, fn, assertion: a, node, tier: 2 + (added ? 0 : 1), added, firstAdded, via });
      }
    }
  }
  return out;
}

/**
 * The order candidates are tried in, lowest first. A one-off that flips a pass/fail outcome (a
 * negation, a flipped bool) on a line the patch adds may state what the unfixed code does, since
 * such lines are where the test failed before the fix; the same flip on an unchanged line held
 * before and so contradicts the unfixed code too. Among added lines, a later one leaves the first
 * added assertion standing before it, where the unfixed code most likely fails already.
 */
function rank(c: Candidate, type: MutationType, negate: boolean): number {
  const flips = negate || c.assertion.expected?.kind === 'bool';
  if (type !== 'oneoff' || !flips || !c.added) return c.tier;
  return c.tier + (c.firstAdded ? 20 : 10);
}

/** The functions of the test that the regions show. */
function functionsOf(ref: TestRef, regions: { region: Region; tree: Tree }[]): { region: Region; fn: RegionFunction }[] {
  return regions.flatMap(({ region, tree }) =>
    fileMayHold(ref, region.file.newPath)
      ? regionFunctions(region, tree)
          .filter((fn) => matches(ref, fn))
          .map((fn) => ({ region, fn }))
      : [],
  );
}

/** Whether any region shows a function of the test at all. */
function functionsShown(ref: TestRef, regions: { region: Region; tree: Tree }[]): boolean {
  return functionsOf(ref, regions).length > 0;
}

function planFor(parser: Parser, c: Candidate, plausible: string[], rng: Rng, negate: boolean, type: MutationType): AssertionPlan | undefined {
  if (negate) return c.via ? undefined : planNegation(c.assertion);
  if (c.via) {
    const value = literalValue(c.via.value);
    const asExpected: FoundAssertion = {
      ...c.assertion,
      comparison: 'eq',
      expected: { span: { start: c.via.value.startIndex, end: c.via.value.endIndex, text: c.via.value.text }, kind: value.kind, value },
    };
    const plan = planExpectedChange(parser, c.tree.rootNode, asExpected, plausible, rng, true);
    return plan ? { ...plan, strategy: `expected-${c.via.kind}/${plan.strategy}` } : undefined;
  }
  const own = ownKindPlan(c.tree.rootNode, c.node, c.assertion, type);
  if (own) return own;
  const literal = !!c.assertion.expected && isPureLiteral(c.assertion.expected.value);
  const byValue = planExpectedChange(parser, c.tree.rootNode, c.assertion, plausible, rng, !literal && EXPRESSION_OK.has(c.assertion.comparison));
  return byValue;
}

/**
 * Makes the one-off or conflicting variant of a SWE-bench test patch, working on the patch text
 * alone: the first FAIL_TO_PASS test whose function the patch shows (with an assertion that can
 * change) is the target. The result is a whole unified diff against the same base. Variants
 * named in `input.skip` (tried already) are passed over for the next in the same order.
 */
export async function mutateSweTestPatch(input: SweMutationInput, type: MutationType, seed: number): Promise<SweMutation> {
  let patch: Patch;
  try {
    patch = parsePatch(input.testPatch);
  } catch (err) {
    if (err instanceof PatchError) return { ok: false, reason: `the test patch is not a valid unified diff (${err.message})` };
    throw err;
  }
  const testFiles = patch.files.filter((f) => f.newPath !== '/dev/null' && isPythonTestFile(f.newPath) && f.hunks.length > 0);
  if (testFiles.length === 0) return { ok: false, reason: 'the test patch changes no Python test file' };
  if (input.failToPass.length === 0) return { ok: false, reason: 'the row lists no FAIL_TO_PASS test to target' };
  const parser = await pythonParser();
  const files = patchedFiles(patch, input.baseFiles);
  const tried = input.skip ?? new Set<string>();
  const fromPatch = firstUntried(variantsWithin(parser, patch, testFiles, files, input, type, seed), tried, (m) => m);
  if (fromPatch.ok || !input.baseFiles) return fromPatch;
  // The repository is at hand: the same engine on the whole test files, emitted as a patch again.
  const widened = fullContextPatch(patch, input.baseFiles, (f) => testFiles.includes(f));
  if (!widened) return fromPatch;
  const wideFiles = widened.files.filter((f) => f.fullContext || testFiles.includes(f));
  const fromFile = firstUntried(variantsWithin(parser, widened, wideFiles, files, input, type, seed), tried, (m) => ({
    ...m,
    testPatch: narrowPatch(m.testPatch, widened, input.baseFiles!),
    record: { ...m.record, origin: 'whole-file' as const },
  }));
  if (!fromFile.ok) return { ok: false, reason: `${fromPatch.reason}; in the whole test file: ${fromFile.reason}` };
  return fromFile;
}

type Made = Extract<SweMutation, { ok: true }>;

/**
 * The first variant, in the engine's order, whose patch is not among those tried already (a
 * variant validation rejected). The engine's trees are freed whenever the walk stops.
 */
function firstUntried(variants: Generator<Made, string>, tried: ReadonlySet<string>, emit: (m: Made) => Made): SweMutation {
  let passed = 0;
  try {
    for (let next = variants.next(); ; next = variants.next()) {
      if (next.done) {
        return { ok: false, reason: passed === 0 ? next.value : 'every variant the engine makes of it was tried' };
      }
      const made = emit(next.value);
      if (!tried.has(made.testPatch)) return made;
      passed++;
    }
  } finally {
    variants.return('');
  }
}

type RefCandidates = { id: string; ref: TestRef; found: Candidate[] }[];
type Regions = { region: Region; tree: Tree }[];

/** Changed expected values, earliest test first; only then negations. Failures go to `problems`. */
function* byAssertion(
  parser: Parser,
  patch: Patch,
  byRef: RefCandidates,
  type: MutationType,
  rng: Rng,
  seed: number,
  problems: string[],
): Generator<Made> {
  for (const negate of [false, true]) {
    for (const { ref, found: all } of byRef) {
      const found = negate ? all.filter((c) => !c.via) : all.filter((c) => c.tier < 4 && !(type === 'oneoff' && c.via?.readElsewhere));
      if (found.length === 0) continue;
      const plausible = plausibleFrom(all.map((c) => c.assertion));
      const ranks = [...new Set(found.map((c) => rank(c, type, negate)))].sort((a, b) => a - b);
      let order: Candidate[] = [];
      for (const t of ranks) {
        let group = rng.shuffle(found.filter((c) => rank(c, type, negate) === t));
        if (type === 'conflicting') {
          const roomy = group.filter((c) => slotsAfter(c).length > 0);
          group = [...roomy, ...group.filter((c) => !roomy.includes(c))];
        }
        order = order.concat(group);
      }
      for (const c of order.slice(0, 24)) {
        const plan = planFor(parser, c, plausible, rng, negate, type);
        if (!plan) continue;
        const result = applyPlan(parser, patch, c, plan, type, rng, seed, ref);
        if (typeof result !== 'string' && result.ok) yield result;
        else if (typeof result === 'string') problems.push(result);
      }
    }
  }
}

/** A test with nothing to change: its final call made to expect an error; returns why none can. */
function* byExpectedError(
  parser: Parser,
  patch: Patch,
  byRef: RefCandidates,
  regions: Regions,
  type: MutationType,
  seed: number,
): Generator<Made, { id: string; why: string }[]> {
  const unwrappable: { id: string; why: string }[] = [];
  for (const { id, ref } of byRef) {
    // The function's last hunk first: the statement wrapped should be as late as it can be.
    for (const { region, fn } of functionsOf(ref, regions).reverse()) {
      const change = expectErrorChange(parser, patch, region, fn, ref.classes.length, type);
      if (typeof change === 'string') {
        unwrappable.push({ id, why: change });
        continue;
      }
      const { testPatch, wholeFunction, ...shown } = change;
      const strategy = type === 'conflicting' ? 'duplicate/expect-error' : 'expect-error';
      yield { ok: true, testPatch, wholeFunction, record: { type, strategy, seed, ...shown, file: region.file.newPath, testId: ref.raw } };
    }
  }
  return unwrappable;
}

/** Why no variant was made, naming the test the last problem concerns. */
function leftOutReason(
  byRef: RefCandidates,
  regions: Regions,
  problems: string[],
  unwrappable: { id: string; why: string }[],
  failToPass: readonly string[],
): string {
  for (const { id, found } of byRef)
    if (found.length > 0) problems.push(`\`${id}\` has no assertion whose expected value can change or that can be negated`);
  const shown = byRef.filter((r) => r.found.length === 0 && functionsShown(r.ref, regions)).map((r) => r.id);
  if (problems.length === 0 && shown.length > 0)
    problems.push(`the patch shows \`${shown[0]}\` but none of its assertions (they lie outside the hunks, or it asserts nothing)`);
  const problem = problems[problems.length - 1];
  if (problem) {
    const u = unwrappable[0];
    // "it" is the test the problem names; another test's reason names that test.
    const tail = !u ? '' : `; nor can a statement of it expect an error (${problem.includes(`\`${u.id}\``) ? u.why : `\`${u.id}\`: ${u.why}`})`;
    return problem + tail;
  }
  const n = failToPass.length;
  return `the test patch shows the body of none of the ${n} FAIL_TO_PASS test${n === 1 ? '' : 's'} (first: \`${failToPass[0]}\`)`;
}

/** The engine's variants on one reading of the patch (its hunks as they are, or widened to whole files), in the order tried; returns why there are no more. */
function* variantsWithin(
  parser: Parser,
  patch: Patch,
  testFiles: readonly FilePatch[],
  files: ReadonlyMap<string, string>,
  input: SweMutationInput,
  type: MutationType,
  seed: number,
): Generator<Made, string> {
  const regions: Regions = [];
  try {
    for (const file of testFiles) {
      file.hunks.forEach((_, i) => {
        const parsed = regionOf(parser, file, i);
        if (parsed) regions.push(parsed);
      });
    }
    const rng = rngFor(seed, input.id, type);
    const problems: string[] = [];
    const resolved = input.failToPass.map((id) => ({ id, ref: resolveDescription(parser, parseTestId(id), regions, files) }));
    // A test whose def lies above a hunk that git headed with a helper nested in it.
    regions.push(
      ...enclosingTestRegions(
        parser,
        testFiles,
        resolved.map((r) => r.ref),
        regions,
      ),
    );
    const byRef = resolved.map(({ id, ref }) => ({ id, ref, found: candidatesFor(ref, regions) }));
    yield* byAssertion(parser, patch, byRef, type, rng, seed, problems);
    const refs = byRef.map((r) => r.ref);
    const kind: KindInput = { parser, patch, testFiles, regions, refs, type, rng, seed };
    for (const make of [raisesClassMutation, helperExpectedMutation]) {
      const variant = make(kind);
      if (variant?.ok) yield variant;
    }
    const wrapped = yield* byExpectedError(parser, patch, byRef, regions, type, seed);
    // Then the rows, lists and cut-off values the patch adds, and the tables a test reads.
    const later = [
      dataRowMutation,
      inputListMutation,
      positionalRowMutation,
      cutListMutation,
      cutTextMutation,
      figureRefMutation,
      shownRowMutation,
      moduleTableMutation,
    ];
    for (const make of later) {
      const variant = make(kind);
      if (variant?.ok) yield variant;
    }
    return leftOutReason(byRef, regions, problems, wrapped, input.failToPass);
  } finally {
    for (const { tree } of regions) tree.delete();
  }
}
