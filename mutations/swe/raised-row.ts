import { CLASS_NAME } from './class-name.js';
import type { DataRow } from './data-rows.js';

/**
 * Exception classes that are the base of others: a row expecting one of them instead would still
 * catch what the code raises, so none is ever chosen as the other class.
 */
const BROAD = new Set([
  'BaseException',
  'Exception',
  'StandardError',
  'ArithmeticError',
  'LookupError',
  'OSError',
  'IOError',
  'EnvironmentError',
  'ValueError',
  'RuntimeError',
  'ImportError',
  'Warning',
  'UserWarning',
  'DeprecationWarning',
  'ConnectionError',
]);

/** The test's parameter that `pytest.raises(p)` / `self.assertRaises(p)` expects, in the lines below the row's table. */
function raisedParameter(lines: readonly string[], params: readonly string[]): string | undefined {
  for (const line of lines) {
    const m = /\b(?:raises|assertRaises|assertRaisesMessage|assertRaisesRegex)\(\s*([A-Za-z_]\w*)\s*[,)]/.exec(line);
    if (m && params.includes(m[1]!)) return m[1];
  }
  return undefined;
}

/**
 * The exception class a parametrize row expects, replaced by another class that the same table
 * names at the same place (so the project defines it), never a broad base class or a name that
 * ends the original's (`URLError` for `InvalidURLError` may be its base). The code's exception is
 * an instance of the original class, so a row expecting the other one fails.
 */
export function raisedClassChange(row: DataRow, tableLines: readonly string[], below: readonly string[]): { at: number; text: string } | undefined {
  if (row.context.kind !== 'parametrize' || !row.context.params || row.context.params.length !== row.items.length) return undefined;
  const param = raisedParameter(below, row.context.params);
  if (!param) return undefined;
  const at = row.context.params.indexOf(param);
  const original = row.items[at]!.text;
  if (!CLASS_NAME.test(original)) return undefined;
  // Siblings: the first value of each other row of the table, read from its lines.
  const siblings = tableLines.flatMap((l) => {
    const m = /^\s*(?:pytest\.param\()?\(?\s*([A-Za-z_]\w*)\s*,/.exec(l);
    return m && at === 0 ? [m[1]!] : [];
  });
  const other = siblings.find((s) => CLASS_NAME.test(s) && s !== original && !BROAD.has(s) && !original.endsWith(s));
  return other ? { at, text: other } : undefined;
}
