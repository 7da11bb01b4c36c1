import type { Parser, Tree } from 'web-tree-sitter';
import { withTreeSync } from '../../python/sync.js';
import { isBlank, leading, parseRegion, regionFunctions, type Region, type RegionLine } from './fragment.js';
import type { FilePatch } from './patch.js';
import { fileMayHold, type TestRef } from './test-id.js';

type Regions = { region: Region; tree: Tree }[];

/** The indentation step assumed for the test's classes and its body (four spaces, as PEP 8 has it). */
const STEP = 4;

/** The definition git named in a hunk's header: its kind, name and first parameter, read by the parser. */
function header(parser: Parser, context: string): { kind: 'def' | 'class'; name: string; first?: string } | undefined {
  const line = context.trim();
  if (!/^(async\s+def|def|class)\s/.test(line) || !line.endsWith(':')) return undefined;
  return withTreeSync(parser, `${line}\n    pass\n`, (t) => {
    const def = t.rootNode.descendantsOfType(['function_definition', 'class_definition'])[0];
    const name = def?.childForFieldName('name')?.text;
    if (!def || !name || t.rootNode.hasError) return undefined;
    const params = def.childForFieldName('parameters');
    const first = params?.namedChildren.find((p) => p !== null)?.text;
    return { kind: def.type === 'class_definition' ? 'class' : 'def', name, first };
  });
}

/** The kind of statement a line opens (a block opener is given a body to parse). */
function statementType(parser: Parser, line: string): string | undefined {
  const text = line.trim();
  return withTreeSync(parser, text.endsWith(':') ? `${text}\n    pass\n` : `${text}\n`, (t) =>
    t.rootNode.hasError ? undefined : t.rootNode.namedChild(0)?.type,
  );
}

/**
 * Whether the definition git named cannot hold the test's body lines itself, so those lines lie
 * in the test, defined above the hunk. Above a module-level test's body lines: a method (first
 * parameter `self`), or a class whose body they would be though they hold a loop or an assert.
 * For a test in a class: a nested class whose body lines use `self` (a class body has none), or
 * `__init__` (pytest collects no class that defines one).
 */
function nestedHelper(parser: Parser, h: NonNullable<ReturnType<typeof header>>, ref: TestRef, bodyLines: string[]): boolean {
  if (h.name === ref.name || h.name.startsWith('test') || ref.classes.includes(h.name)) return false;
  if (ref.classes.length === 0) {
    if (h.kind === 'def') return h.first === 'self' || h.first === 'cls';
    // A class at the margin would hold these lines as its body, where loops and asserts have no place.
    return !h.name.startsWith('Test') && bodyLines.some((l) => ['for_statement', 'assert_statement'].includes(statementType(parser, l) ?? ''));
  }
  if (h.kind === 'def') return h.name === '__init__' && ref.file !== undefined;
  return bodyLines.some((l) =>
    withTreeSync(parser, `${l.trim()}\n`, (t) => t.rootNode.descendantsOfType('identifier').some((i) => i?.text === 'self')),
  );
}

/** The hunk's lines under openers that name the test: its classes, its `def`, then `if 1:` at every deeper level the hunk returns to. */
function regionUnder(parser: Parser, file: FilePatch, hunkIndex: number, ref: TestRef, body: number): { region: Region; tree: Tree } | undefined {
  const hunk = file.hunks[hunkIndex]!;
  const lines: RegionLine[] = [];
  let newLine = hunk.newStart;
  hunk.lines.forEach((l, hunkLine) => {
    if (l.op === ' ' || l.op === '+') lines.push({ text: l.text, hunkLine, op: l.op, newLine: newLine++ });
  });
  const first = lines.find((l) => !isBlank(l.text));
  if (!first || leading(first.text).length < body) return undefined;
  const deeper = new Set<number>();
  for (const l of lines) {
    const n = leading(l.text).length;
    if (!isBlank(l.text) && n >= body && n < leading(first.text).length) deeper.add(n);
  }
  const prefix = ref.classes.map((c, i) => `${' '.repeat(i * STEP)}class ${c}:`);
  prefix.push(`${' '.repeat(body - STEP)}def ${ref.name}(self):`);
  for (const n of [...deeper].sort((a, b) => a - b)) prefix.push(`${' '.repeat(n)}if 1:`);
  const all = [...prefix, ...lines.map((l) => l.text)];
  const rowStarts: number[] = [];
  let at = 0;
  for (const row of all) {
    rowStarts.push(at);
    at += row.length + 1;
  }
  const region: Region = {
    file,
    hunkIndex,
    hunk,
    lines,
    prefixLines: prefix.length,
    source: `${all.join('\n')}\n`,
    rowStarts,
    wholeFile: false,
    reachesEnd: false,
  };
  const tree = parseRegion(parser, region);
  if (tree && !tree.rootNode.hasError) return { region, tree };
  tree?.delete();
  return undefined;
}

/**
 * Regions for a test whose own `def` lies above the hunk while git named a helper nested in it
 * (a class or method the test defines): the hunk's lines at the test's body indentation are read
 * as the test's. Only for the one FAIL_TO_PASS test of its file that no region shows, and only
 * where the patch adds a line at that indentation.
 */
export function enclosingTestRegions(parser: Parser, testFiles: readonly FilePatch[], refs: readonly TestRef[], regions: Regions): Regions {
  const shown = (ref: TestRef) =>
    regions.some(({ region, tree }) => fileMayHold(ref, region.file.newPath) && regionFunctions(region, tree).some((f) => f.name === ref.name));
  const out: Regions = [];
  for (const file of testFiles) {
    const unshown = refs.filter((r) => r.name && r.description === undefined && fileMayHold(r, file.newPath) && !shown(r));
    const names = new Set(unshown.map((r) => `${r.classes.join('.')}.${r.name}`));
    if (names.size !== 1) continue;
    const ref = unshown[0]!;
    const body = STEP * (ref.classes.length + 1);
    file.hunks.forEach((hunk, h) => {
      const named = header(parser, hunk.context);
      // The test ends at the first code line shallower than its body: only lines above it are its own.
      const shown = hunk.lines.filter((l) => l.op !== '-');
      const end = shown.findIndex((l) => !isBlank(l.text) && leading(l.text).length < body && !l.text.trim().startsWith('#'));
      const own = end < 0 ? shown : shown.slice(0, end);
      const atBody = own.filter((l) => l.op === '+' && !isBlank(l.text) && leading(l.text).length === body && !l.text.trim().startsWith('#'));
      if (
        !named ||
        atBody.length === 0 ||
        !nestedHelper(
          parser,
          named,
          ref,
          atBody.map((l) => l.text),
        )
      )
        return;
      const made = regionUnder(parser, file, h, ref, body);
      if (made) out.push(made);
    });
  }
  return out;
}
