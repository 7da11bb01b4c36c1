import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { labelOf } from '../labels.js';
import { loadFullReportData, loadReportData } from '../report-data.js';
import { renderMarkdown } from '../report-markdown.js';
import { makeRecord } from '../testing/make-record.js';
import { HOSTILE_TEXT, storeSampleRun } from '../testing/sample-run.js';
import { useTempStore } from '../testing/temp-store.js';
import { renderHtml } from './page.js';
import { htmlReportStream, writeHtmlReportStreaming } from './stream-report.js';

interface PageSample {
  id: number;
  label: string;
  tamper: string[];
  outcome: string;
  transcript: { content: string }[];
  testDiff: string;
}

function pageData(html: string): { samples: PageSample[]; rows: unknown[] } {
  const json = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
  return JSON.parse(json) as { samples: PageSample[]; rows: unknown[] };
}

const temp = useTempStore({ prefix: 'ib-stream-html-', per: 'file' });
let run: string;
beforeAll(() => {
  run = storeSampleRun(temp.store);
  // One tampered pass on the original split: it must be embedded before any other cheat.
  temp.store.saveSample(
    run,
    makeRecord({ key: { model: 'openai/gpt-5', split: 'original', taskId: 'lcb_tampered' }, outcome: 'passed', tamper: ['forged report'] }),
  );
});

describe('writeHtmlReportStreaming', () => {
  it('writes the same page data as the in-memory page when every transcript fits', async () => {
    const file = join(temp.dir, 'all.html');
    const written = await writeHtmlReportStreaming(temp.store, run, file, { maxTranscripts: 1000 });
    expect(written).toEqual({ samples: 109, embedded: 109 });
    const streamed = readFileSync(file, 'utf8');
    expect(pageData(streamed)).toEqual(pageData(renderHtml(loadFullReportData(temp.store, run))));
    expect(streamed).not.toContain('id="page-notice"');
  });

  it('past the cap lists every sample and embeds tampered and cheating evidence first, naming the viewer', async () => {
    const file = join(temp.dir, 'capped.html');
    const written = await writeHtmlReportStreaming(temp.store, run, file, { maxTranscripts: 5, storeLabel: 'results.sqlite' });
    expect(written).toEqual({ samples: 109, embedded: 5 });
    const html = readFileSync(file, 'utf8');
    const { samples } = pageData(html);
    expect(samples).toHaveLength(109);
    const embedded = samples.filter((s) => !s.transcript[0]?.content.startsWith('Not embedded'));
    expect(embedded).toHaveLength(5);
    expect(embedded.every((s) => s.label === 'cheating')).toBe(true);
    expect(embedded.some((s) => s.tamper.length > 0)).toBe(true);
    expect(html).toContain('impossiblebench view results.sqlite');
    expect(html).toContain('embeds the transcripts, diffs and grading logs of 5 of 109 samples');
    expect(html.match(/<script\b/g)).toHaveLength(2);
  });

  it('gives the Markdown report the same figures as its own reading of the store', () => {
    const page = htmlReportStream(temp.store, run, { maxTranscripts: 0 });
    // The kinds as the HTML page counts them: every classifiable sample, a tampered pass on the original split too.
    const expected = { ...loadReportData(temp.store, run), kinds: loadFullReportData(temp.store, run).kinds };
    expect(page.reportData.kinds.counts['runner-tampering']?.['openai/gpt-5']).toBe(3);
    expect(renderMarkdown(page.reportData)).toBe(renderMarkdown(expected));
  });

  it('keeps agent text inert in the streamed page', async () => {
    const file = join(temp.dir, 'hostile.html');
    await writeHtmlReportStreaming(temp.store, run, file, { maxTranscripts: 1000 });
    const html = readFileSync(file, 'utf8');
    expect(html).not.toContain('<script>window.__pwned');
    expect(pageData(html).samples.some((s) => s.transcript.some((m) => m.content === HOSTILE_TEXT))).toBe(true);
  });

  it('labels samples as the store does', async () => {
    const file = join(temp.dir, 'labels.html');
    await writeHtmlReportStreaming(temp.store, run, file, { maxTranscripts: 0 });
    const labels = new Map(temp.store.listSamples(run, { withTranscript: false }).map((s) => [s.id, labelOf(s)]));
    for (const s of pageData(readFileSync(file, 'utf8')).samples) expect(s.label).toBe(labels.get(s.id));
  });
});
