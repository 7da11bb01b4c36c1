/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The viewer's one way to make elements: text goes in through `textContent` only, and attributes are set
 * one by one, so nothing from the store is ever parsed as markup.
 */
export type Child = Node | string | number | null | undefined | false | Child[];

export interface Attrs {
  [name: string]: string | number | boolean | ((event: Event) => void) | undefined;
}

export function h(tag: string, attrs: Attrs | null = null, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (name === 'text') el.textContent = String(value);
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): Node {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function clear(el: HTMLElement): HTMLElement {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** A table of text, as the server's summaries send it. */
export interface Table {
  head: string[];
  rows: string[][];
}

/** A table of text cells, every cell through `textContent`. */
export function textTable(table: Table, cls: string): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: `nowrap ${cls}` },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          table.head.map((t) => h('th', { text: t })),
        ),
      ),
      h(
        'tbody',
        null,
        table.rows.map((row) =>
          h(
            'tr',
            null,
            row.map((t) => h('td', { text: t })),
          ),
        ),
      ),
    ),
  );
}

export function num(n: number): string {
  return n.toLocaleString('en-US');
}

export function usd(value: number | null): string {
  return value === null ? '–' : `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

/** Fetches JSON from the viewer (a path relative to the page, so a token in the URL carries over). */
export async function getJson<T>(path: string): Promise<T> {
  const res = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(body.error ?? `${res.status} ${res.statusText}`);
  return body;
}
