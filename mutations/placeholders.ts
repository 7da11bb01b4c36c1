/**
 * The format placeholders of a string's text: printf's (`%s`, `%(name)s`, `%-5.2f`, `%%`) and
 * `str.format`'s (`{}`, `{0}`, `{name}`, `{name.attr[0]!r:>10}`). A string the test formats as a
 * template must keep them whole: a changed one (`%s` → `%x`, `{name}` → `{nxme}`) makes the
 * formatting itself raise, which contradicts nothing the code does.
 */

// No space flag: `50% off` reads as a placeholder to Python, but it is far likelier prose.
const PRINTF = /%(?:\([^()]*\))?[#0+-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]/g;
// `{{` and `}}` are escaped braces, matched so the text between them stays changeable.
const BRACES = /\{\{|\}\}|\{(?:\d+|[A-Za-z_]\w*)?(?:\.[A-Za-z_]\w*|\[[^\]{}]*\])*(?:![rsa])?(?::[^{}]*)?\}/g;

/**
 * The spans `re` matches in `text`, when every `marks` character lies in one: only then can the
 * text be such a template (`\left(x^{2}\right)` is none, its first `{` opening no field).
 */
function templateSpans(text: string, re: RegExp, marks: RegExp): [number, number][] {
  const spans = [...text.matchAll(re)].map((m): [number, number] => [m.index, m.index + m[0].length]);
  let rest = text;
  for (const [s, e] of spans) rest = rest.slice(0, s) + ' '.repeat(e - s) + rest.slice(e);
  return marks.test(rest) ? [] : spans;
}

/** The [start, end) offsets of the placeholders in `text`, escaped braces (`{{`) left out. */
export function placeholderSpans(text: string): [number, number][] {
  const escaped = ([s]: [number, number]) => text.startsWith('{{', s) || text.startsWith('}}', s);
  const braces = templateSpans(text, BRACES, /[{}]/).filter((span) => !escaped(span));
  return [...templateSpans(text, PRINTF, /%/), ...braces];
}
