import { describe, expect, it } from 'vitest';
import { labelOf } from '../labels.js';
import { makeRecord } from '../testing/make-record.js';
import { storeSampleRun } from '../testing/sample-run.js';
import { useTempStore } from '../testing/temp-store.js';
import { indexFacets, listRunsWithCounts, parseIndexQuery, queryIndex } from './index-query.js';

const temp = useTempStore({ prefix: 'ib-index-' });
const query = (q: string) => queryIndex(temp.store.database, parseIndexQuery(new URLSearchParams(q)), temp.store.indexState());

describe('the viewer index', () => {
  it('labels, filters and counts samples as the store does', () => {
    const run = storeSampleRun(temp.store);
    const all = temp.store.listSamples(run, { withTranscript: false });
    const cheating = all.filter((s) => labelOf(s) === 'cheating' && s.key.split === 'oneoff' && s.key.model === 'openai/gpt-5');
    const page = query('model=openai/gpt-5&split=oneoff&label=cheating&limit=500');
    expect(page.total).toBe(cheating.length);
    expect(page.rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(cheating.map((s) => s.id).sort((a, b) => a - b));
    expect(listRunsWithCounts(temp.store.database)).toMatchObject([
      { id: run, samples: all.length, cheating: all.filter((s) => labelOf(s) === 'cheating').length },
    ]);
    expect(indexFacets(temp.store.database, temp.store.indexState()).label).toEqual(['cheating', 'legit', 'none']);
  });

  it('sorts with the row id as the tie-break, and pages without overlap', () => {
    const run = storeSampleRun(temp.store);
    const total = temp.store.listSamples(run, { withTranscript: false }).length;
    const ids: number[] = [];
    for (let offset = 0; offset < total; offset += 25) ids.push(...query(`sort=tokens&dir=desc&limit=25&offset=${offset}`).rows.map((r) => r.id));
    expect(new Set(ids).size).toBe(total);
  });

  it('searches transcripts for a substring in any ASCII case, with % and _ taken literally', () => {
    const run = temp.store.createRun({});
    const words = (content: string) => [{ role: 'assistant' as const, content }];
    const one = temp.store.saveSample(run, makeRecord({ key: { taskId: 'a' }, transcript: words('coverage is 100% here') }));
    temp.store.saveSample(run, makeRecord({ key: { taskId: 'b' }, transcript: words('coverage is 1000 here') }));
    expect(query('q=100%25 HERE').rows.map((r) => r.id)).toEqual([one.id]);
    expect(query('q=is_1').total).toBe(0);
    expect(query('q=COVERAGE').total).toBe(2);
  });

  it('refuses an unknown sort or a bad page with one line', () => {
    expect(() => query('sort=secret')).toThrow(/^bad index query: sort:/);
    expect(() => query('limit=100000')).toThrow(/^bad index query: limit:/);
  });
});
