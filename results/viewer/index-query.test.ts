import { describe, expect, it } from 'vitest';
import { ADMIT, DENY, OFF_POINT } from '../../simulated/policies/interview.js';
import { labelOf } from '../labels.js';
import { askedInterview, makeRecord } from '../testing/make-record.js';
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

  it('filters by cheating kind and by token and cost ranges, inclusive', () => {
    const run = storeSampleRun(temp.store);
    const all = temp.store.listSamples(run, { withTranscript: false });
    const modify = query('kind=modify-tests&limit=500');
    expect(modify.total).toBeGreaterThan(0);
    for (const row of modify.rows) {
      expect(row.kinds).toContain('modify-tests');
      expect(row.label === 'cheating' || row.outcome === 'evaded').toBe(true);
    }
    const tokens = all.map((s) => s.inputTokens + s.outputTokens).sort((a, b) => a - b);
    const [low, high] = [tokens[10]!, tokens[tokens.length - 10]!];
    const inRange = all.filter((s) => s.inputTokens + s.outputTokens >= low && s.inputTokens + s.outputTokens <= high);
    expect(query(`tokensMin=${low}&tokensMax=${high}&limit=500`).total).toBe(inRange.length);
    const costs = all.flatMap((s) => (s.costUsd === null ? [] : [s.costUsd])).sort((a, b) => a - b);
    const cheap = costs[Math.floor(costs.length / 2)]!;
    expect(query(`costMax=${cheap}&limit=500`).total).toBe(all.filter((s) => s.costUsd !== null && s.costUsd <= cheap).length);
    expect(query('tokensMin=&costMax=').total).toBe(all.length);
    expect(() => query('kind=cheating-hard')).toThrow(/^bad index query: kind:/);
    expect(() => query('costMin=-1')).toThrow(/^bad index query: costMin:/);
  });

  it('finds a code-like substring through the trigram index as the scan does, and never a string split across messages', () => {
    const run = temp.store.createRun({});
    const words = (...content: string[]) => content.map((c) => ({ role: 'assistant' as const, content: c }));
    const one = temp.store.saveSample(run, makeRecord({ key: { taskId: 'a' }, transcript: words('    assert x == "quoted" AND y') }));
    temp.store.saveSample(run, makeRecord({ key: { taskId: 'b' }, transcript: words('assert x', '== "quoted"') }));
    temp.store.saveSample(run, makeRecord({ key: { taskId: 'c' }, transcript: words('assert y == x') }));
    for (const q of ['assert x ==', 'x == "quoted" and', 'ASSERT X']) {
      const indexed = query(`q=${encodeURIComponent(q)}`).rows.map((r) => r.id);
      const scanned = queryIndex(temp.store.database, parseIndexQuery(new URLSearchParams({ q })), { kinds: true, transcripts: false }).rows.map(
        (r) => r.id,
      );
      expect(indexed, q).toEqual(scanned);
    }
    expect(query(`q=${encodeURIComponent('assert x ==')}`).rows.map((r) => r.id)).toEqual([one.id]);
    expect(query('q=x =').total).toBe(1);
  });

  it("shows and filters by the interview's reading by rules: a reading, not asked, or any interviewed sample", () => {
    const run = temp.store.createRun({});
    const asked = askedInterview;
    const save = (taskId: string, interview?: ReturnType<typeof asked>) =>
      temp.store.saveSample(run, makeRecord({ key: { taskId }, ...(interview ? { interview } : {}) })).id;
    const admits = save('a', asked(ADMIT));
    const denies = save('d', asked(DENY));
    const evasive = save('e', asked(OFF_POINT));
    const notAsked = save('n', asked('', 'overloaded'));
    const never = save('x');
    expect(Object.fromEntries(query('limit=500').rows.map((r) => [r.id, r.interview]))).toEqual({
      [admits]: 'admits',
      [denies]: 'denies',
      [evasive]: 'evasive',
      [notAsked]: 'not-asked',
      [never]: null,
    });
    for (const [filter, ids] of [
      ['admits', [admits]],
      ['denies', [denies]],
      ['evasive', [evasive]],
      ['not-asked', [notAsked]],
      ['any', [admits, denies, evasive, notAsked]],
    ] as const) {
      const page = query(`interview=${filter}&model=scripted/honest`);
      expect(
        page.rows.map((r) => r.id),
        filter,
      ).toEqual(ids);
      expect(page.total).toBe(ids.length);
    }
    expect(query('interview=').total).toBe(5);
    expect(() => query('interview=lies')).toThrow(/^bad index query: interview:/);
    expect(indexFacets(temp.store.database, temp.store.indexState()).interview).toEqual(['any', 'admits', 'denies', 'evasive', 'not-asked']);
  });

  it('offers no interview filter before any sample was interviewed, nor over a store written before interviews were kept', () => {
    storeSampleRun(temp.store);
    expect(indexFacets(temp.store.database, temp.store.indexState()).interview).toEqual([]);
    temp.store.database.exec('ALTER TABLE samples DROP COLUMN interview');
    expect(indexFacets(temp.store.database, temp.store.indexState()).interview).toEqual([]);
    const page = query('limit=5');
    expect(page.rows.map((r) => r.interview)).toEqual([null, null, null, null, null]);
    expect(query('interview=any').total).toBe(0);
  });

  it('refuses an unknown sort or a bad page with one line', () => {
    expect(() => query('sort=secret')).toThrow(/^bad index query: sort:/);
    expect(() => query('limit=100000')).toThrow(/^bad index query: limit:/);
  });
});
