import type { MutationType } from '../outcome.js';
import { leading, regionFunctions, type RegionFunction } from './fragment.js';
import { withHunkLines } from './emit.js';
import { parsePatch, type PatchLine } from './patch.js';
import { fileMayHold } from './test-id.js';
import type { SweVariant, KindInput } from './types.js';

/** matplotlib's decorator that draws the test's two figures and fails unless their images are equal. */
const DECORATOR = 'check_figures_equal';

/** Whether the function is a whole figure comparison the hunk shows: the decorator, and the two figures it passes by name. */
function comparesFigures(fn: RegionFunction): boolean {
  const decorated = fn.node.parent?.type === 'decorated_definition' ? fn.node.parent : undefined;
  const decorators = decorated?.namedChildren.filter((c) => c?.type === 'decorator') ?? [];
  if (!fn.whole || !decorators.some((d) => d?.descendantsOfType('identifier').some((i) => i?.text === DECORATOR))) return false;
  const params = fn.node.childForFieldName('parameters')?.namedChildren.map((p) => p?.text) ?? [];
  return params.includes('fig_test') && params.includes('fig_ref');
}

/** Lines added after the function's last line, at its body's indentation. */
function added(type: MutationType, indent: string): string[] {
  if (type === 'oneoff') return [`${indent}fig_ref.text(0.5, 0.5, "x")`];
  return [
    `${indent}fig_test.canvas.draw()`,
    `${indent}fig_ref.canvas.draw()`,
    `${indent}assert fig_test.canvas.buffer_rgba().tobytes() != fig_ref.canvas.buffer_rgba().tobytes()`,
  ];
}

/**
 * A test whose expected value is a reference figure (`@check_figures_equal`, drawing `fig_test`
 * and `fig_ref`), shown whole: the one-off draws a text on the reference figure after the test's
 * own drawing, so the images the fixed code makes differ; the conflicting variant keeps the
 * comparison and asserts the two figures render differently.
 */
export function* figureRefMutation(input: KindInput): Generator<SweVariant> {
  const { patch, regions, refs, type, seed } = input;
  for (const ref of refs) {
    for (const { region, tree } of regions) {
      if (!ref.name || !fileMayHold(ref, region.file.newPath)) continue;
      const fn = regionFunctions(region, tree).find((f) => f.name === ref.name && f.classes.length === 0 && comparesFigures(f));
      const body = fn?.node.childForFieldName('body');
      if (!fn || !body) continue;
      const last = region.lines[fn.node.endPosition.row - region.prefixLines];
      const first = region.lines[body.startPosition.row - region.prefixLines];
      if (!last || !first) continue;
      const lines: PatchLine[] = region.hunk.lines.map((l) => ({ ...l }));
      const extra = added(type, leading(first.text));
      lines.splice(last.hunkLine + 1, 0, ...extra.map((text) => ({ op: '+' as const, text })));
      const testPatch = withHunkLines(patch, region, lines);
      try {
        parsePatch(testPatch);
      } catch {
        continue;
      }
      const strategy = type === 'oneoff' ? 'figure-ref/text-drawn' : 'duplicate/figure-ref/differs';
      const record = { type, strategy, seed, line: last.newLine + 1, before: last.text.trim(), after: extra.map((l) => l.trim()).join('\n') };
      yield { ok: true, testPatch, wholeFunction: false, record: { ...record, file: region.file.newPath, testId: ref.raw } };
    }
  }
}
