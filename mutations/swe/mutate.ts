import type { Parser, Tree } from 'web-tree-sitter';
import type { MutationType } from '../outcome.js';
import { pythonParser } from '../../python/parser.js';
import { rngFor } from '../rng.js';
import { regionOf, type Region } from './fragment.js';
import { isPythonTestFile, parsePatch, PatchError, type Patch, type FilePatch } from './patch.js';
import { parseTestId } from './test-id.js';
import { resolveDescription } from './docstring.js';
import { patchedFiles } from './apply.js';
import { fullContextPatch, narrowPatch } from './whole-file.js';
import { enclosingTestRegions } from './enclosing-test.js';
import { candidatesFor, functionsShown } from './assertion-kinds.js';
import { MUTATION_KINDS } from './kinds.js';

import type { KindInput, SweMutation, SweMutationInput, SweVariant } from './types.js';

export type { SweMutation, SweMutationInput } from './types.js';

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

type Made = SweVariant;

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

type Regions = { region: Region; tree: Tree }[];

/** Why no variant was made, naming the test the last problem concerns. */
function leftOutReason(input: KindInput, failToPass: readonly string[]): string {
  const { targets: byRef, regions } = input;
  const { problems, unwrappable } = input.notes;
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
    const targets = resolved.map(({ id, ref }) => ({ id, ref, found: candidatesFor(ref, regions) }));
    const refs = targets.map((r) => r.ref);
    const notes: KindInput['notes'] = { problems: [], unwrappable: [] };
    const kind: KindInput = { parser, patch, testFiles, regions, refs, targets, type, rng, seed, notes };
    for (const { name, candidates } of MUTATION_KINDS) {
      for (const variant of candidates(kind)) yield { ...variant, record: { ...variant.record, kind: name } };
    }
    return leftOutReason(kind, input.failToPass);
  } finally {
    for (const { tree } of regions) tree.delete();
  }
}
