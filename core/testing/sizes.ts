import ts from 'typescript';

/**
 * Size limits that keep the code readable in one sitting: no non-test function over 80 lines, no file over 400.
 * Tests, `testing/` helpers, fixtures and bench/ are exempt; so is generated code.
 */
export const MAX_FUNCTION_LINES = 80;
export const MAX_FILE_LINES = 400;

export const exempt = (path: string) =>
  /\.test\.ts$/.test(path) || /(^|\/)(testing|fixtures)(\/|\.ts$)/.test(path) || path.startsWith('bench/') || /\.generated\.ts$/.test(path);

/** Each way a source breaks the limits, one line each. */
export function oversize(path: string, text: string): string[] {
  const found: string[] = [];
  const lines = text.split('\n').length;
  if (lines > MAX_FILE_LINES) found.push(`${path}: ${lines} lines (at most ${MAX_FILE_LINES})`);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      if (end - start + 1 > MAX_FUNCTION_LINES)
        found.push(`${path}:${start + 1}: a function of ${end - start + 1} lines (at most ${MAX_FUNCTION_LINES})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
