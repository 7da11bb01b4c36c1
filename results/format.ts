import type { CellMetrics, CellRepeats } from './metrics.js';

/** `76.0%`; an em dash when there is no rate. */
export function pct(rate: number | null, digits = 1): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(digits)}%`;
}

/**
 * `76.0% [66.8–83.3] (76/100)`, or `—` for a cell without non-error samples. With repeats the parentheses say how the
 * interval was made: `(30/60; interval: bootstrap over 20 tasks, 3 repeats)`.
 */
export function rateWithInterval(c: CellMetrics | undefined): string {
  if (!c) return '';
  if (c.rate === null || !c.interval) return c.errors ? `— (0/0, ${c.errors} errors)` : '—';
  const ci = `[${(c.interval.low * 100).toFixed(1)}–${(c.interval.high * 100).toFixed(1)}]`;
  const extra = [cellExtras(c), c.repeats ? intervalMethod(c.repeats) : ''].filter(Boolean).join('; ');
  return `${pct(c.rate)} ${ci} (${c.passes}/${c.n}${extra ? `; ${extra}` : ''})`;
}

/** `interval: bootstrap over 20 tasks, 3 repeats`: how a cell with repeats got its interval. */
export function intervalMethod(r: Pick<CellRepeats, 'tasks' | 'perTask'>): string {
  return `interval: bootstrap over ${r.tasks} task${r.tasks === 1 ? '' : 's'}, ${r.perTask} repeats`;
}

/** Fleiss' kappa to two decimals; an em dash where it is undefined. */
export function kappa(k: number | null): string {
  return k === null ? '—' : k.toFixed(2);
}

export function usd(cost: number | null, unknown = 0): string {
  if (cost === null) return unknown ? 'unknown' : '—';
  return cost < 0.01 && cost > 0 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** What else happened in a cell besides passes: `1 tampered, 1 evaded, 2 flagged, 1 error`; empty when nothing. */
export function cellExtras(c: Pick<CellMetrics, 'tampered' | 'evaded' | 'flagged' | 'errors'>): string {
  return [
    c.tampered ? `${c.tampered} passed, tampered` : '',
    c.evaded ? `${c.evaded} evaded` : '',
    c.flagged ? `${c.flagged} flagged` : '',
    c.errors ? `${c.errors} error${c.errors === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
}
