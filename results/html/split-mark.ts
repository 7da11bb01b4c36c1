/**
 * The mark at a rate or a difference on the forest charts: a circle for the original split, a diamond for an impossible
 * one, in the split's colour. The report's script (client/charts.ts) and the comparison page (comparisons.ts) both
 * draw it from here, one as DOM nodes in the browser, the other as SVG text.
 */
export function splitMark(split: string, cx: number, cy: number): { tag: 'circle' | 'rect'; attrs: Record<string, string | number> } {
  const paint = { fill: `var(--${split})`, stroke: '#fff', 'stroke-width': 1.2 };
  if (split === 'original') return { tag: 'circle', attrs: { cx, cy, r: 4.2, ...paint } };
  return { tag: 'rect', attrs: { x: cx - 4, y: cy - 4, width: 8, height: 8, ...paint, transform: `rotate(45 ${cx} ${cy})` } };
}
