import { kids, type Node } from '../../python/parser.js';

/** First line of a function's docstring, stripped, as django's runner prints it. */
export function docstringFirstLine(fn: Node): string | undefined {
  const body = fn.childForFieldName('body');
  const first = body ? kids(body).find((c) => c.type !== 'comment') : undefined;
  const str = first?.type === 'expression_statement' ? kids(first)[0] : undefined;
  if (str?.type !== 'string') return undefined;
  const content = kids(str, false)
    .filter((c) => c.type === 'string_content')
    .map((c) => c.text)
    .join('');
  return content.trim().split('\n')[0]?.trim();
}
