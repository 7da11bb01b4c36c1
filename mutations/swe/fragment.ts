import type { Parser, Tree } from 'web-tree-sitter';
import { kids, type Node } from '../../python/parser.js';
import { withTreeSync } from '../../python/sync.js';
import type { FilePatch, Hunk } from './patch.js';
import { docstringFirstLine } from './docstring-line.js';
import { headerAcrossString } from './string-header.js';

/** One post-image line of a hunk: its text, where it sits in the hunk, and its new-file line number. */
export interface RegionLine {
  text: string;
  hunkLine: number;
  op: ' ' | '+';
  newLine: number;
}

/**
 * The post-patch text of one hunk, made parseable on its own: when the hunk starts inside an
 * indented block, synthetic opener lines come first (the enclosing `def`/`class` that git names
 * in the hunk header, else `if 1:`), so the hunk's lines keep their real indentation.
 */
export interface Region {
  file: FilePatch;
  hunkIndex: number;
  hunk: Hunk;
  lines: RegionLine[];
  /** How many synthetic lines precede the hunk's lines in `source`. */
  prefixLines: number;
  source: string;
  /** Offset in `source` where each row starts. */
  rowStarts: number[];
  /** The whole file is in the patch (a created file). */
  wholeFile: boolean;
  /** The hunk runs to the end of the file. */
  reachesEnd: boolean;
}

/** A line's leading spaces and tabs. */
export function leading(text: string): string {
  let i = 0;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text.slice(0, i);
}

export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/**
 * Whether a test function's rows, from its `def` row on, parse cleanly once dedented by the
 * `def` row's indentation (no code row is shallower; a multi-line string's row may be, and keeps
 * what it has).
 */
export function functionParses(parser: Parser, rows: string[]): boolean {
  const cut = leading(rows[0] ?? '').length;
  const text = `${rows.map((l) => (isBlank(l) ? '' : l.slice(Math.min(cut, leading(l).length)))).join('\n')}\n`;
  return withTreeSync(parser, text, (t) => !t.rootNode.hasError);
}

/** The name and kind of the definition git printed as a hunk's context, read by the parser. */
function contextDefinition(parser: Parser, context: string): { kind: 'def' | 'class'; name: string } | undefined {
  const line = context.trim();
  if (!/^(async\s+def|def|class)\s/.test(line)) return undefined;
  const tree = parser.parse(line.endsWith(':') ? `${line}\n    pass\n` : `${line}\n`);
  if (!tree) return undefined;
  try {
    const def = tree.rootNode.descendantsOfType(['function_definition', 'class_definition'])[0];
    const name = def?.childForFieldName('name')?.text ?? tree.rootNode.descendantsOfType('identifier')[0]?.text;
    if (!name) return undefined;
    return { kind: line.startsWith('class') ? 'class' : 'def', name };
  } finally {
    tree.delete();
  }
}

/** Rows that continue a multi-line string: their indentation is text, not structure. */
function stringRows(parser: Parser, source: string, prefixLines: number): Set<number> {
  const rows = new Set<number>();
  const tree = parser.parse(source);
  if (!tree) return rows;
  try {
    for (const s of tree.rootNode.descendantsOfType('string')) {
      if (!s) continue;
      for (let r = s.startPosition.row + 1; r <= s.endPosition.row; r++) rows.add(r - prefixLines);
    }
  } finally {
    tree.delete();
  }
  return rows;
}

/** Whether the hunk reaches the end of the file: git keeps 3 lines of context unless the file ends. */
function reachesEnd(hunk: Hunk): boolean {
  const lead = hunk.lines.findIndex((l) => l.op !== ' ');
  let trail = 0;
  for (let i = hunk.lines.length - 1; i >= 0 && hunk.lines[i]!.op === ' '; i--) trail++;
  return lead >= 0 && trail < 3 && (lead >= 3 || trail < lead);
}

export function buildRegion(parser: Parser, file: FilePatch, hunkIndex: number, skipRows?: Set<number>): Region {
  const hunk = file.hunks[hunkIndex]!;
  const lines: RegionLine[] = [];
  let newLine = hunk.newStart;
  hunk.lines.forEach((l, hunkLine) => {
    if (l.op === ' ' || l.op === '+') lines.push({ text: l.text, hunkLine, op: l.op, newLine: newLine++ });
  });
  const wholeFile = !!file.fullContext || (file.oldPath === '/dev/null' && file.hunks.length === 1);
  const prefix: string[] = [];
  const first = lines.find((l, row) => !isBlank(l.text) && !skipRows?.has(row));
  const firstIndent = first ? leading(first.text) : '';
  if (!wholeFile && firstIndent.length > 0) {
    // Every shallower indentation the hunk returns to needs an opener at that level. The enclosing
    // definition git named goes at the deepest level where the hunk shows sibling definitions (or
    // at the left margin), so every body line the hunk shows falls inside it.
    const levels = new Map<number, string>([[0, '']]);
    let defLevel = 0;
    for (const [row, l] of lines.entries()) {
      if (isBlank(l.text) || skipRows?.has(row)) continue;
      const ws = leading(l.text);
      if (ws.length >= firstIndent.length) continue;
      if (!levels.has(ws.length)) levels.set(ws.length, ws);
      const word = l.text.trimStart();
      if (/^(def|async|class|@)/.test(word)) defLevel = Math.max(defLevel, ws.length);
    }
    const ctx = contextDefinition(parser, headerAcrossString(file, hunkIndex) ?? hunk.context);
    for (const [level, ws] of [...levels.entries()].sort((a, b) => a[0] - b[0])) {
      if (level === defLevel && ctx) prefix.push(ctx.kind === 'def' ? `${ws}def ${ctx.name}(self):` : `${ws}class ${ctx.name}:`);
      else prefix.push(`${ws}if 1:`);
    }
  }
  const all = [...prefix, ...lines.map((l) => l.text)];
  const rowStarts: number[] = [];
  let at = 0;
  for (const row of all) {
    rowStarts.push(at);
    at += row.length + 1;
  }
  const source = `${all.join('\n')}\n`;
  const region = {
    file,
    hunkIndex,
    hunk,
    lines,
    prefixLines: prefix.length,
    source,
    rowStarts,
    wholeFile,
    reachesEnd: wholeFile || reachesEnd(hunk),
  };
  if (skipRows || prefix.length <= 1) return region;
  // Indentation inside a multi-line string is not structure: build again without those rows.
  const inStrings = stringRows(parser, source, prefix.length);
  return inStrings.size > 0 ? buildRegion(parser, file, hunkIndex, inStrings) : region;
}

/** A function found in a region. */
export interface RegionFunction {
  node: Node;
  name: string;
  /** Names of the real enclosing classes seen in the region, outermost first. */
  classes: string[];
  /** The `def` line itself is outside the hunk: only the body's visible part is known. */
  partial: boolean;
  /** The whole function, from `def` to its last line, lies inside the hunk. */
  whole: boolean;
  /** First line of the docstring, stripped. */
  description?: string;
}

/** Whether the region goes on, past `row`, with a line at most as indented as `indent` (so `row` closes its statement). */
export function closedAfter(region: Region, row: number, indent: number): boolean {
  for (let r = row + 1; r < region.prefixLines + region.lines.length; r++) {
    const text = region.lines[r - region.prefixLines]!.text;
    if (isBlank(text) || text.trim().startsWith('#')) continue;
    return leading(text).length <= indent;
  }
  return region.reachesEnd;
}

export function regionFunctions(region: Region, tree: Tree): RegionFunction[] {
  const out: RegionFunction[] = [];
  for (const node of tree.rootNode.descendantsOfType('function_definition')) {
    if (!node) continue;
    const name = node.childForFieldName('name')?.text;
    if (!name) continue;
    const classes: string[] = [];
    for (let p = node.parent; p; p = p.parent) {
      if (p.type === 'class_definition' && p.startPosition.row >= region.prefixLines) classes.unshift(p.childForFieldName('name')?.text ?? '');
    }
    const partial = node.startPosition.row < region.prefixLines;
    const whole = !partial && closedAfter(region, node.endPosition.row, node.startPosition.column);
    out.push({ node, name, classes, partial, whole, description: partial ? undefined : docstringFirstLine(node) });
  }
  return out;
}

function firstErrorRows(root: Node): [number, number] | undefined {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) return [n.startPosition.row, n.endPosition.row];
    if (!n.hasError) continue;
    const children = kids(n, false);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}

/** Replaces rows of the region's source (numbered like `source`) by blank lines, keeping every other row in place. */
function blankSourceRows(region: Region, rows: Iterable<number>): void {
  const all = region.source.split('\n');
  for (const r of rows) if (r >= 0 && r < all.length) all[r] = '';
  region.source = all.join('\n');
  let at = 0;
  region.rowStarts = all.map((row) => {
    const start = at;
    at += row.length + 1;
    return start;
  });
}

/**
 * The hunk's first rows when they end a multi-line string opened above the hunk (the tail of a
 * docstring or of a long literal): read by letting the parser open the string itself. Undefined
 * when the hunk does not start inside such a string.
 */
function leadingStringRows(parser: Parser, lines: RegionLine[], knownInside = false): Set<number> | undefined {
  const body = `${lines.map((l) => l.text).join('\n')}\n`;
  for (const quote of ['"""', "'''"]) {
    const tree = parser.parse(`${quote}\n${body}`);
    if (!tree) continue;
    try {
      const first = tree.rootNode.namedChild(0);
      // What follows the string may be broken (a cut call's `)`), and error recovery may wrap the string:
      // read so only when the hunk before is known to end inside a string.
      const str =
        first?.type === 'expression_statement'
          ? first.namedChild(0)
          : first?.type === 'ERROR' && knownInside
            ? tree.rootNode.descendantsOfType('string').find((n) => n?.startIndex === 0)
            : first;
      if (str?.type !== 'string' || str.startIndex !== 0 || str.hasError || str.endPosition.row < 1) continue;
      // The closing quote ends the string on hunk row endRow - 1; what follows it on that row
      // (`""",`) belongs to the same cut statement, so the row goes as a whole.
      const rows = new Set<number>();
      for (let r = 0; r < str.endPosition.row; r++) rows.add(r);
      return rows;
    } finally {
      tree.delete();
    }
  }
  return undefined;
}

/**
 * Builds and parses the region of a hunk. When that parse fails because the hunk starts inside a
 * multi-line string, those leading rows are blanked (they hold no statement) and the rest is
 * parsed on its own.
 */
export function regionOf(parser: Parser, file: FilePatch, hunkIndex: number): { region: Region; tree: Tree } | undefined {
  const region = buildRegion(parser, file, hunkIndex);
  const tree = parseRegion(parser, region);
  // Known to open inside a string (the hunk before ends in one): that reading first, even when the plain one parses.
  const inside = headerAcrossString(file, hunkIndex) !== undefined;
  if (tree && !tree.rootNode.hasError && !inside) return readInsideString(parser, file, hunkIndex, region, tree);
  if (!tree) return undefined;
  const inString = leadingStringRows(parser, region.lines, inside);
  const leads = [inString, leadingContinuationRows(region.lines), new Set<number>()].filter((l): l is Set<number> => !!l);
  const tries: Set<number>[] = [];
  for (let cut = 0; cut <= 6; cut++) {
    const tail = trailingRows(region.lines, cut);
    if (!tail) break;
    for (const lead of leads) if (lead.size > 0 || cut > 0) tries.push(new Set([...lead, ...tail]));
  }
  // Each try drops whole rows; the first clean parse with the fewest dropped keeps the most.
  tries.sort((a, b) => a.size - b.size);
  // A hunk known to open inside a string is read that way before any reading that drops fewer rows.
  if (inside && inString) tries.sort((a, b) => Number([...inString].every((r) => b.has(r))) - Number([...inString].every((r) => a.has(r))));
  for (const rows of tries) {
    const alt = buildRegion(parser, file, hunkIndex, rows);
    blankSourceRows(
      alt,
      [...rows].map((r) => r + alt.prefixLines),
    );
    const altTree = parseRegion(parser, alt);
    if (altTree && !altTree.rootNode.hasError) {
      tree.delete();
      return { region: alt, tree: altTree };
    }
    altTree?.delete();
  }
  return { region, tree };
}

/**
 * A clean parse may still read a hunk that starts inside a docstring the wrong way round: the
 * docstring's closing quotes open a string that swallows the code below, test functions and all.
 * When the string begun on that row holds a `def` line and the hunk's first row did not parse as
 * code, the hunk is read as starting inside the string instead, if that parses too.
 */
function readInsideString(parser: Parser, file: FilePatch, hunkIndex: number, region: Region, tree: Tree): { region: Region; tree: Tree } {
  const lead = leadingStringRows(parser, region.lines);
  if (!lead || lead.size === 0) return { region, tree };
  const closingRow = Math.max(...lead) + region.prefixLines;
  const swallowing = tree.rootNode
    .descendantsOfType('string')
    .some((s) => !!s && s.startPosition.row === closingRow && /\n\s*(async\s+)?def\s+\w+\s*\(/.test(s.text));
  // The plain reading had to drop the hunk's first row as broken code: prose, the docstring's text.
  const rows = region.source.split('\n');
  const first = region.lines.findIndex((l) => !isBlank(l.text));
  const dropped = lead.has(first) && isBlank(rows[first + region.prefixLines] ?? '');
  if (!swallowing || !dropped) return { region, tree };
  const alt = buildRegion(parser, file, hunkIndex, lead);
  blankSourceRows(
    alt,
    [...lead].map((r) => r + alt.prefixLines),
  );
  const altTree = parseRegion(parser, alt);
  if (!altTree || altTree.rootNode.hasError) {
    altTree?.delete();
    return { region, tree };
  }
  tree.delete();
  return { region: alt, tree: altTree };
}

/**
 * The hunk's last `count` non-blank rows (a statement the hunk cuts off before its end), or
 * undefined when what would remain ends in a backslash: a row continued that way could read as a
 * shorter, different statement once its continuation is gone.
 */
function trailingRows(lines: RegionLine[], count: number): Set<number> | undefined {
  const rows = new Set<number>();
  let r = lines.length - 1;
  for (; r >= 0 && rows.size < count; r--) if (!isBlank(lines[r]!.text)) rows.add(r);
  if (rows.size < count) return undefined;
  for (; r >= 0; r--) {
    if (isBlank(lines[r]!.text)) continue;
    return lines[r]!.text.trimEnd().endsWith('\\') ? undefined : rows;
  }
  return rows;
}

/**
 * The hunk's first rows when they continue a statement begun above the hunk (the tail of a call's
 * arguments, deeper than the code that follows): the rows before the first one that is less
 * indented than the hunk's first line, when there are only a few.
 */
function leadingContinuationRows(lines: RegionLine[]): Set<number> | undefined {
  const first = lines.findIndex((l) => !isBlank(l.text));
  if (first < 0) return undefined;
  const indent = leading(lines[first]!.text).length;
  for (let r = first + 1; r < lines.length && r <= first + 8; r++) {
    const text = lines[r]!.text;
    if (isBlank(text)) continue;
    if (leading(text).length < indent) {
      const rows = new Set<number>();
      for (let k = 0; k < r; k++) rows.add(k);
      return rows;
    }
  }
  return undefined;
}

/**
 * Parses a region. A hunk often starts or ends inside a statement (a closing bracket, a line
 * continued past the hunk): such rows cannot parse and could drag good code into an error node,
 * so they are blanked (blank lines keep every other row where it is) and the region is parsed
 * again, a few times at most.
 */
export function parseRegion(parser: Parser, region: Region): Tree | undefined {
  let tree = parser.parse(region.source);
  for (let attempt = 0; tree?.rootNode.hasError && attempt < 4; attempt++) {
    const rows = firstErrorRows(tree.rootNode);
    if (!rows || rows[0] < region.prefixLines || rows[1] - rows[0] > 3) break;
    const blank: number[] = [];
    for (let r = rows[0]; r <= rows[1]; r++) blank.push(r);
    blankSourceRows(region, blank);
    tree.delete();
    tree = parser.parse(region.source);
  }
  return tree ?? undefined;
}
