import { beforeAll, describe, expect, it } from 'vitest';
import { loadFullReportData } from '../report-data.js';
import { HOSTILE_TEXT, storeSampleRun } from '../testing/sample-run.js';
import { useTempStore } from '../testing/temp-store.js';
import { escapeHtml, renderHtml, scriptJson } from './page.js';

const temp = useTempStore({ prefix: 'ib-html-', per: 'file' });
let html: string;
beforeAll(() => {
  html = renderHtml(loadFullReportData(temp.store, storeSampleRun(temp.store)));
});

describe('renderHtml', () => {
  it('is one page that references nothing outside itself', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain("default-src 'none'");
    // No element may point anywhere: no src, no href other than in-page anchors, no stylesheet links, no imports.
    const markup = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');
    expect(markup).not.toMatch(/\ssrc\s*=/i);
    expect(markup).not.toMatch(/<link\b/i);
    expect(markup).not.toMatch(/@import|url\(/i);
    expect(markup).not.toMatch(/href\s*=\s*["'](?!#)/i);
  });

  it('embeds agent text as inert data that reads back exactly', () => {
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).not.toContain('<img src="https://example.invalid');
    const scripts = html.match(/<script\b/g) ?? [];
    expect(scripts).toHaveLength(2);
    const json = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const data = JSON.parse(json) as { samples: { transcript: { content: string }[]; cacheReadTokens: unknown }[] };
    expect(data.samples.some((s) => s.transcript.some((m) => m.content === HOSTILE_TEXT))).toBe(true);
    expect(data.samples).toHaveLength(108);
    // The sample panel shows the input read from the prompt cache beside the input.
    expect(data.samples.every((s) => s.cacheReadTokens === 0)).toBe(true);
  });

  it('escapes text for markup and for script data', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const tricky = { s: '</script><!-- \u2028\u2029' };
    const out = scriptJson(tricky);
    expect(out).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(tricky);
  });
});
