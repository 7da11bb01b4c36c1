import { describe, expect, it } from 'vitest';
import type { FieldComparison } from '../compare/by-field.js';
import type { PairComparison } from '../compare/compare.js';
import { loadFullReportData } from '../report-data.js';
import { makeRecord } from '../testing/make-record.js';
import { storeSampleRun } from '../testing/sample-run.js';
import { useTempStore } from '../testing/temp-store.js';
import { comparisonForest, comparisonsHtml, MAX_DISCORDANT } from './comparisons.js';
import { renderHtml } from './page.js';

const temp = useTempStore({ prefix: 'ib-compare-html-', per: 'file' });

function pair(over: Partial<PairComparison>): PairComparison {
  return {
    a: 'full',
    b: 'readonly',
    split: 'oneoff',
    tasks: 10,
    leftOut: 0,
    rateA: 0.8,
    rateB: 0.1,
    difference: 0.7,
    interval: { low: 0.35, high: 0.9 },
    intervalMethod: 'tango',
    p: 0.0078,
    pAdjusted: null,
    discordant: [{ task: 'builtin:lcb lcb_003', passedIn: 'full', samplesA: [3], samplesB: [13] }],
    ...over,
  };
}

/** The x of each pair's mark and of its whiskers' ends, row by row, read back from the SVG. */
function rowsOf(svg: string): { split: string; mark: number; low: number; high: number }[] {
  return [...svg.matchAll(/<g class="pair" data-split="(\w+)"[^>]*>(.*?)<\/g>/g)].map(([, split, inner]) => {
    const whisker = /class="whisker" x1="([\d.]+)" x2="([\d.]+)"/.exec(inner!)!;
    const mark = /<circle cx="([\d.]+)"/.exec(inner!) ?? /rotate\(45 ([\d.]+) /.exec(inner!)!;
    return { split: split!, mark: Number(mark[1]), low: Number(whisker[1]), high: Number(whisker[2]) };
  });
}

describe('the comparisons section', () => {
  const three: FieldComparison = {
    field: 'access',
    arms: ['full', 'readonly', 'none'],
    comparisons: [
      pair({ pAdjusted: 0.0234 }),
      pair({ b: 'none', difference: 0, rateB: 0.8, interval: { low: -0.2, high: 0.2 }, p: 1, pAdjusted: 1, discordant: [] }),
      pair({ split: 'original', difference: -0.5, rateA: 0.2, rateB: 0.7, interval: { low: -0.8, high: -0.1 }, p: 0.03, pAdjusted: 0.06 }),
    ],
  };

  it('plots one row per pair and split: the mark at the difference, whiskers over the interval, a line at 0', () => {
    const svg = comparisonForest(three.comparisons);
    const rows = rowsOf(svg);
    expect(rows.map((r) => r.split)).toEqual(['oneoff', 'oneoff', 'original']);
    const zero = Number(/<line x1="([\d.]+)"[^>]*class="zero"/.exec(svg)![1]);
    // The zero line sits where a difference of 0 is drawn: the second pair's mark.
    expect(rows[1]!.mark).toBeCloseTo(zero, 6);
    expect(rows[0]!.mark).toBeGreaterThan(zero);
    expect(rows[2]!.mark).toBeLessThan(zero);
    for (const r of rows) {
      expect(r.low).toBeLessThanOrEqual(r.mark);
      expect(r.high).toBeGreaterThanOrEqual(r.mark);
    }
    // The interval's width is to scale: [-0.2, 0.2] is 0.4 of the axis' 2.0, [0.35, 0.9] is 0.55 of it.
    expect((rows[0]!.high - rows[0]!.low) / (rows[1]!.high - rows[1]!.low)).toBeCloseTo(0.55 / 0.4, 6);
    // Split colours and shapes as in the report's other charts: diamonds on impossible splits, a dot on the original.
    expect(svg).toContain('var(--oneoff)');
    expect(svg).toMatch(/data-split="original"[^>]*>.*?<circle/);
  });

  it('tables the rates, the difference with its interval, p and the Holm-adjusted p, and links each differing task to its samples', () => {
    const html = comparisonsHtml([three]);
    expect(html).toContain('<h2>Comparisons by access</h2>');
    expect(html).toContain('<th>p (Holm)</th>');
    expect(html).toContain('Correction: Holm.');
    expect(html).toContain('<td>+70.0 pts [+35.0, +90.0]</td><td>0.0078</td><td>0.0234</td>');
    expect(html).toContain('<td>80.0%</td><td>10.0%</td>');
    expect(html.match(/<li class="discordant-task"/g)).toHaveLength(2);
    expect(html).toContain(
      'builtin:lcb lcb_003: passed in <b>full</b> only · full: <a class="sample-link" href="#sample-3">#3</a> · readonly: <a class="sample-link" href="#sample-13">#13</a>',
    );
    // The viewer links a sample its own way.
    expect(comparisonsHtml([three], (id) => `#/sample/${id}`)).toContain('href="#/sample/13"');
  });

  it('with one pair names no correction, caps long task lists, and escapes arm names', () => {
    const many = Array.from({ length: MAX_DISCORDANT + 7 }, (_, i) => ({ task: `t${i}`, passedIn: '<b>x', samplesA: [i], samplesB: [i + 1000] }));
    const html = comparisonsHtml([{ field: 'model', arms: ['<b>x', 'y'], comparisons: [pair({ a: '<b>x', b: 'y', discordant: many })] }]);
    expect(html).not.toContain('p (Holm)');
    expect(html).not.toContain('<b>x');
    expect(html).toContain('&lt;b&gt;x');
    expect(html.match(/<li class="discordant-task"/g)).toHaveLength(MAX_DISCORDANT);
    expect(html).toContain('… and 7 more');
  });

  it('says so when no two arms ran the same task', () => {
    expect(comparisonsHtml([{ field: 'scaffold', arms: ['a', 'b'], comparisons: [] }])).toContain('No two arms ran the same task');
    expect(comparisonsHtml([])).toBe('');
  });
});

describe('the report page', () => {
  it("has a comparisons card for each setting the run varies, linking to the page's samples", () => {
    const html = renderHtml(loadFullReportData(temp.store, storeSampleRun(temp.store)));
    const cards = [...html.matchAll(/<section class="card comparison" id="compare-(\w+)"/g)].map((m) => m[1]);
    // The sample run has two models, two scaffolds and two access modes, one prompt and one attempt budget.
    expect(cards).toEqual(['model', 'scaffold', 'access']);
    expect(html).toMatch(/href="#sample-\d+"/);
  });

  it('a run of one arm has no comparisons card', () => {
    const run = temp.store.createRun({}, { id: 'one-arm' });
    for (const split of ['original', 'oneoff'] as const) temp.store.saveSample(run, makeRecord({ key: { split } }));
    const html = renderHtml(loadFullReportData(temp.store, run));
    expect(html).not.toContain('class="card comparison"');
    expect(html).not.toContain('<svg class="forest compare-forest"');
  });
});
