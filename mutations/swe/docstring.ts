import type { Parser, Tree } from 'web-tree-sitter';
import { isBlank, regionFunctions, type Region } from './fragment.js';
import type { TestRef } from './test-id.js';
import { docstringFirstLine } from './docstring-line.js';

export { docstringFirstLine } from './docstring-line.js';

/** The same test, named by its function instead of its docstring. */
function named(ref: TestRef, name: string, classes: string[], file?: string): TestRef {
  return { raw: ref.raw, classes, name, ...(file ? { file } : {}) };
}

/**
 * The function a hunk opens inside of (git names it in the hunk header), when the hunk's first
 * line is its docstring's first line: the `"""` stands above the hunk, so the parser cannot see it.
 */
function openedInDocstring(region: Region, tree: Tree, description: string): TestRef | undefined {
  const first = region.lines.find((l) => !isBlank(l.text));
  if (first?.op !== ' ' || first.text.trim() !== description) return undefined;
  const fn = regionFunctions(region, tree).find((f) => f.partial && f.node.startPosition.row === region.prefixLines - 1);
  return fn ? { raw: '', classes: [], name: fn.name } : undefined;
}

/**
 * The one test function the hunks open inside of (git names it in a hunk header) with its docstring
 * out of view, when there is exactly one: a docstring-named test whose docstring no hunk shows is
 * most likely the test the patch edits. Were it another, the edited test is most likely still one
 * the row runs, and validation drops a variant the gold patch passes.
 */
function soleOpenedTest(regions: readonly { region: Region; tree: Tree }[]): TestRef | undefined {
  const names = new Set<string>();
  for (const { region, tree } of regions)
    for (const f of regionFunctions(region, tree)) if (f.partial && f.name.startsWith('test')) names.add(f.name);
  return names.size === 1 ? { raw: '', classes: [], name: [...names][0]! } : undefined;
}

/**
 * Maps a django test id that is a docstring's first line to the function whose docstring it is:
 * first in the patch's regions, else in the whole test files given (post-patch text by path), else
 * the one test the hunks open inside of. Any other id comes back as it is.
 */
export function resolveDescription(
  parser: Parser,
  ref: TestRef,
  regions: readonly { region: Region; tree: Tree }[],
  files?: ReadonlyMap<string, string>,
): TestRef {
  const description = ref.description;
  if (description === undefined) return ref;
  for (const { region, tree } of regions) {
    const fn = regionFunctions(region, tree).find((f) => f.description === description);
    if (fn) return named(ref, fn.name, fn.classes);
  }
  for (const { region, tree } of regions) {
    const opened = openedInDocstring(region, tree, description);
    if (opened?.name) return named(ref, opened.name, []);
  }
  for (const [path, text] of files ?? []) {
    const tree = parser.parse(text);
    if (!tree) continue;
    try {
      for (const fn of tree.rootNode.descendantsOfType('function_definition')) {
        if (!fn || docstringFirstLine(fn) !== description) continue;
        const classes: string[] = [];
        for (let p = fn.parent; p; p = p.parent) if (p.type === 'class_definition') classes.unshift(p.childForFieldName('name')?.text ?? '');
        const name = fn.childForFieldName('name')?.text;
        if (name) return named(ref, name, classes, path);
      }
    } finally {
      tree.delete();
    }
  }
  const sole = soleOpenedTest(regions);
  return sole?.name ? named(ref, sole.name, []) : ref;
}
