import type { Tree } from 'web-tree-sitter';
import { kids, type Node } from '../../python/parser.js';
import { HELPER_NAME } from './assertion-helper.js';
import { EXPECTED_NAME } from './data-rows.js';
import type { Region } from './fragment.js';
import { KNOWN_ASSERTIONS } from './known-assertions.js';

/** Helper names that read as a comparison of what comes first with what comes last: `assertOptimizesTo`, `check_output_is`. */
const COMPARING = /(To|Equals?|Is|As|Returns?|Match(es)?|Gives|Yields|Produces)$|_(to|equals?|is|as|returns?|match(es)?|gives|yields|produces)$/;

/** An argument of a helper call taken for its expected value, and how it was told. */
export interface ExpectedArgument {
  node: Node;
  how: 'keyword' | 'parameter' | 'last-argument';
}

/** The name of a test class's own assertion helper that `call` reaches through `self`, if it is one. */
export function ownHelperName(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'attribute' || fn.childForFieldName('object')?.text !== 'self') return undefined;
  const name = fn.childForFieldName('attribute')?.text;
  return name && HELPER_NAME.test(name) && !KNOWN_ASSERTIONS.has(name) ? name : undefined;
}

/** The parameter names a caller fills by position, after `self`: up to the first `*`, `*args` or `**kwargs`. */
function positionalParameters(def: Node): string[] {
  const names: string[] = [];
  for (const p of kids(def.childForFieldName('parameters') ?? def)) {
    if (p.type === 'list_splat_pattern' || p.type === 'dictionary_splat_pattern' || p.type === 'keyword_separator') break;
    if (p.type === 'positional_separator' || p.type === 'comment') continue;
    const name = p.type === 'identifier' ? p : (p.childForFieldName('name') ?? kids(p).find((k) => k.type === 'identifier'));
    if (!name) return [];
    names.push(name.text);
  }
  return names[0] === 'self' || names[0] === 'cls' ? names.slice(1) : [];
}

/** The method `name` as the regions of the test's file show it, nearest first: the test's own class, then any class of the file. */
export function helperDefinition(
  name: string,
  test: Node,
  file: Region['file'],
  regions: readonly { region: Region; tree: Tree }[],
): Node | undefined {
  let cls: Node | null = test.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  const defs = regions
    .filter(({ region }) => region.file === file)
    .flatMap(({ region, tree }) =>
      tree.rootNode
        .descendantsOfType('function_definition')
        // A def at a row before the hunk's own lines is a synthetic opener, not the helper's signature.
        .filter((d): d is Node => !!d && d.childForFieldName('name')?.text === name && d.startPosition.row >= region.prefixLines),
    )
    .filter((d) => {
      const body = d.parent?.type === 'decorated_definition' ? d.parent.parent : d.parent;
      return body?.type === 'block' && body.parent?.type === 'class_definition';
    });
  const inClass = cls ? defs.find((d) => cls.startIndex <= d.startIndex && d.endIndex <= cls.endIndex) : undefined;
  return inClass ?? defs[0];
}

/**
 * The arguments of a helper call that hold its expected value, most certain first: a keyword
 * named like an expectation (`expected=`), else the argument the helper's own parameter of such a
 * name takes (when its def is in sight), else, with no def in sight, the last of at least two
 * positional arguments of a helper named as a comparison. A def in sight without such a
 * parameter says the helper's arguments are something else, so nothing is guessed then.
 */
export function expectedArguments(call: Node, name: string, def: Node | undefined): ExpectedArgument[] {
  const list = call.childForFieldName('arguments');
  if (list?.type !== 'argument_list') return [];
  const args = kids(list).filter((a) => a.type !== 'comment');
  const out: ExpectedArgument[] = [];
  for (const a of args) {
    const value = a.type === 'keyword_argument' ? a.childForFieldName('value') : null;
    if (value && EXPECTED_NAME.test(a.childForFieldName('name')?.text ?? '')) out.push({ node: value, how: 'keyword' });
  }
  // A splat spreads values over positions no one can tell from the call.
  if (args.some((a) => a.type === 'list_splat' || a.type === 'dictionary_splat')) return out;
  const positional = args.filter((a) => a.type !== 'keyword_argument');
  if (def) {
    const at = positionalParameters(def).findIndex((p) => EXPECTED_NAME.test(p));
    const arg = at >= 0 ? positional[at] : undefined;
    if (arg) out.push({ node: arg, how: 'parameter' });
  } else if (positional.length >= 2 && COMPARING.test(name)) out.push({ node: positional[positional.length - 1]!, how: 'last-argument' });
  return out;
}
