import type { CellMetrics } from './metrics.js';

/** `76.0%`; an em dash when there is no rate. */
export function pct(rate: number | null, digits = 1): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(digits)}%`;
}

/** `76.0% [66.8–83.3] (76/100)`, or `—` for a cell without non-error samples. */
export function rateWithInterval(c: CellMetrics | undefined): string {
  if (!c) return '';
  if (c.rate === null || !c.interval) return c.errors ? `— (0/0, ${c.errors} errors)` : '—';
  const ci = `[${(c.interval.low * 100).toFixed(1)}–${(c.interval.high * 100).toFixed(1)}]`;
  return `${pct(c.rate)} ${ci} (${c.passes}/${c.n})`;
}

export function usd(cost: number | null, unknown = 0): string {
  if (cost === null) return unknown ? 'unknown' : '—';
  return cost < 0.01 && cost > 0 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}
