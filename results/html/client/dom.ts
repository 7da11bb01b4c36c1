import { append, type Child } from '../../viewer/client/dom.js';

export { append, clear, h, num, type Child } from '../../viewer/client/dom.js';

const SVGNS = 'http://www.w3.org/2000/svg';

/** An element the page's markup always holds. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** An SVG element, made like `h` makes HTML: text through `textContent` only, attributes one by one. */
export function svg(tag: string, attrs: Record<string, string | number | undefined>, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVGNS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined) continue;
    if (name === 'text') el.textContent = String(value);
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined ? '—' : `${(x * 100).toFixed(digits)}%`;
}

/** A cost in dollars; null is unknown, said as such where `unknown` asks for it. */
export function usd(c: number | null, unknown: boolean): string {
  if (c === null) return unknown ? 'unknown' : '—';
  return c > 0 && c < 0.01 ? `$${c.toFixed(4)}` : `$${c.toFixed(2)}`;
}

export function secs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : ms < 60000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60000).toFixed(1)} min`;
}
