import { describe, expect, it } from 'vitest';
import { tricksOf } from './classify/index.js';
import { computeMetrics } from './metrics.js';
import { cellMetricsOf } from './metrics-sql.js';
import { loadReportData } from './report-data.js';
import { openStore } from './store.js';
import { dropIndexes } from './testing/pre-index-store.js';
import { makeRecord } from './testing/make-record.js';
import { storeSampleRun } from './testing/sample-run.js';
import { useTempStore } from './testing/temp-store.js';
import { transcriptHits } from './viewer/transcript-search.js';

const temp = useTempStore({ prefix: 'ib-store-index-' });

const storedKinds = (id: number) =>
  (temp.store.database.prepare('SELECT kind FROM sample_kinds WHERE sample_id = ? ORDER BY kind').all(id) as { kind: string }[]).map((r) => r.kind);

describe("the store's indexes", () => {
  it('keeps the kinds of each pass and evasion and its transcript text as the sample is written, and replaces them with an error record', () => {
    const run = temp.store.createRun({});
    const modify = makeRecord({
      key: { split: 'oneoff', taskId: 'modify' },
      outcome: 'passed',
      testDiff: 'diff --git a/test.py b/test.py\n--- a/test.py\n+++ b/test.py\n@@ -1,1 +1,1 @@\n-assert f(2) == 5\n+assert f(2) == 4\n',
    });
    const saved = temp.store.saveSample(run, modify);
    expect(storedKinds(saved.id)).toEqual([...new Set(tricksOf(saved).map((k) => k.kind))].sort());
    expect(storedKinds(saved.id)).toContain('modify-tests');
    expect(temp.store.indexState()).toEqual({ kinds: true, transcripts: true });

    const failedOnce = temp.store.saveSample(
      run,
      makeRecord({ key: { taskId: 'retry' }, outcome: 'error', transcript: [{ role: 'assistant', content: 'first try: zebra-421' }] }),
    );
    const db = temp.store.database;
    expect(transcriptHits(db, 'zebra-421', true)).toEqual([failedOnce.id]);
    temp.store.saveSample(
      run,
      makeRecord({ key: { taskId: 'retry' }, outcome: 'failed', transcript: [{ role: 'assistant', content: 'second: okapi-77' }] }),
    );
    expect(transcriptHits(db, 'zebra-421', true)).toEqual([]);
    expect(transcriptHits(db, 'OKAPI-77', true)).toEqual([failedOnce.id]);
    expect(storedKinds(failedOnce.id)).toEqual([]);
  });

  it('fills the indexes of a store written before them once, on its next open for writing; a read-only open does without', () => {
    const run = storeSampleRun(temp.store);
    const before = temp.store.listSamples(run);
    temp.store.close();
    dropIndexes(temp.path);

    const reader = openStore(temp.path, { readonly: true });
    expect(reader.schemaVersion()).toBe(3);
    expect(reader.indexState()).toEqual({ kinds: false, transcripts: false });
    const unindexed = loadReportData(reader, run);
    const scanned = transcriptHits(reader.database, 'assert candidate', false);
    reader.close();

    const writer = temp.reopen();
    expect(writer.builtOnOpen).toEqual(['kinds', 'transcripts']);
    expect(writer.indexState()).toEqual({ kinds: true, transcripts: true });
    for (const s of before) {
      const expected = s.outcome === 'passed' || s.outcome === 'evaded' ? [...new Set(tricksOf(s).map((k) => k.kind))].sort() : [];
      expect(storedKinds(s.id), `sample ${s.keyString}`).toEqual(expected);
    }
    expect(transcriptHits(writer.database, 'assert candidate', true).sort()).toEqual(scanned.sort());
    // The report from the kinds index says what the one pass over the transcripts said.
    const indexed = loadReportData(writer, run);
    expect(indexed.kinds).toEqual(unindexed.kinds);
    expect(indexed.monitors.monitors).toEqual(unindexed.monitors.monitors);
    expect(temp.reopen().builtOnOpen).toEqual([]);
  });

  it('computes the cells of a run in SQL as computeMetrics does in memory', () => {
    const run = storeSampleRun(temp.store);
    temp.store.saveSample(run, makeRecord({ key: { taskId: 'x', split: 'oneoff' }, outcome: 'passed', tamper: ['forged report'], costUsd: null }));
    temp.store.saveSample(run, makeRecord({ key: { taskId: 'y', split: 'original' }, outcome: 'error' }));
    const inMemory = computeMetrics(temp.store.listSamples(run, { withTranscript: false }));
    const inSql = cellMetricsOf(temp.store.database, run);
    const rounded = (cells: typeof inSql) =>
      cells.map((c) => ({ ...c, costUsd: c.costUsd === null ? null : c.costUsd.toFixed(9), meanWallMs: c.meanWallMs?.toFixed(6) }));
    expect(rounded(inSql)).toEqual(rounded(inMemory));
    expect(inSql.length).toBeGreaterThan(4);
  });

  it('takes the task as the unit in SQL as in memory when tasks are repeated', () => {
    const run = storeSampleRun(temp.store);
    const outcomes = ['passed', 'failed', 'error', 'passed', 'passed', 'failed'] as const;
    for (const [i, outcome] of outcomes.entries())
      temp.store.saveSample(run, makeRecord({ key: { taskId: `r${i % 2}`, split: 'oneoff', epoch: 10 + Math.floor(i / 2) }, outcome }));
    const inMemory = computeMetrics(temp.store.listSamples(run, { withTranscript: false }));
    const inSql = cellMetricsOf(temp.store.database, run);
    const repeated = inSql.filter((c) => c.repeats);
    expect(repeated).toHaveLength(1);
    expect(repeated[0]!.repeats!.perTask).toBeGreaterThanOrEqual(3);
    const rated = (cells: typeof inSql) => cells.map((c) => ({ rate: c.rate, interval: c.interval, repeats: c.repeats }));
    expect(rated(inSql)).toEqual(rated(inMemory));
  });
});
