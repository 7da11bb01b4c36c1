import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA, requireSharedData } from '../../core/testing/shared-data.js';
import { loadReportData } from '../report-data.js';
import { renderMarkdown } from '../report-markdown.js';
import { storeSampleRun } from '../testing/sample-run.js';
import { openStore, type StoredSample } from '../store.js';
import { useTempStore } from '../testing/temp-store.js';
import { exportInspectLogs } from './export-logs.js';
import { importInspectLogs } from './import.js';
import { readInspectLog } from './read.js';
import { UNGRADED } from './log-kind.js';
import { monitorScope } from '../monitor/monitor-run.js';

const temp = useTempStore({ prefix: 'ib-inspect-import-' });

const recordOf = ({ id: _id, runId: _run, ...rest }: StoredSample) => rest;
const byKey = (xs: StoredSample[]) => [...xs].sort((a, b) => a.keyString.localeCompare(b.keyString)).map(recordOf);

/*
 * The varied sample run (errors, evasions, tampering, flags, unknown costs, hostile text) exported and imported back
 * sample for sample; and every log Inspect itself wrote in the shared data imported as transcripts with its scores.
 */
describe('importInspectLogs', () => {
  it.each(['inspect', 'inspect-json'] as const)('rebuilds every sample of a varied run exactly from its %s logs', async (format) => {
    const run = storeSampleRun(temp.store);
    // A reference verdict on a task of the run's dataset, and one broken task: the report's environment names both.
    const dataset = temp.store.listSamples(run)[0]!.key.dataset;
    temp.store.recordRunReferences(run, [
      { dataset, taskId: 'ok-1', referenceKey: 'k1', resolved: true, reason: 'resolved', notPassed: [], skipped: [], limits: '2 CPUs, 4096 MiB' },
      {
        dataset,
        taskId: 'broken-1',
        referenceKey: 'k2',
        resolved: false,
        reason: 'a graded test failed',
        notPassed: [{ id: 't::x', status: 'failed', why: 'failed' }],
        skipped: [{ id: 't::y' }],
        limits: '2 CPUs, 4096 MiB',
      },
    ]);
    const out = join(temp.dir, format);
    await exportInspectLogs(temp.store, run, out, format);
    const fresh = openStore(join(temp.dir, `${format}.sqlite`));
    try {
      const lines: string[] = [];
      const result = importInspectLogs(fresh, [out], (l) => lines.push(l));
      expect(result.skipped).toEqual([]);
      expect(result.runId).toBe(run);
      expect(result.lacks).toEqual([]);
      expect(lines.filter((l) => /^\[\d+\/\d+\] /.test(l))).toHaveLength(result.logs.length);
      expect(byKey(fresh.listSamples(run))).toEqual(byKey(temp.store.listSamples(run)));
      expect(fresh.getRun(run).config).toMatchObject(temp.store.getRun(run).config as object);
      expect(fresh.runReferences(run)).toEqual(temp.store.runReferences(run));
    } finally {
      fresh.close();
    }
  });

  it('imports each log Inspect wrote, with the samples and scorers its header states, none graded', (ctx) => {
    const dir = join(SHARED_DATA, 'inspect-logs');
    requireSharedData(ctx, 'inspect-logs/README.md');
    const files = readdirSync(dir).filter((f) => /\.(eval|json)$/.test(f) && f !== 'inspect-openapi.json');
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const f of files) {
      const file = join(dir, f);
      const log = readInspectLog(file);
      const result = importInspectLogs(temp.store, [file]);
      expect(result.skipped, f).toEqual([]);
      expect(result.byKind, f).toEqual({ inspect: log.samples.length });
      const results = log.header.results!;
      // A log Inspect streams holds its samples as it finishes them: all of them once it ended. The tool-call log keeps
      // only the last of its four epochs, so it holds fewer than its header counts, and never more.
      if (f === 'log_tool_call_error.json') expect(log.samples.length).toBeLessThan(results.completed_samples);
      else expect(log.samples.length, f).toBe(results.completed_samples);
      const stored = temp.store.listSamples(result.runId);
      expect(stored, f).toHaveLength(log.samples.length);
      const run = temp.store.getRun(result.runId);
      expect(run.status).toBe('finished');
      expect(run.config).toMatchObject({ imported: { files: [{ file, kind: 'inspect' }], ungraded: log.samples.length } });
      // The report says its samples are ungraded, and counts none as a pass.
      const report = renderMarkdown(loadReportData(temp.store, result.runId));
      expect(report).toContain(`holds ${log.samples.length} imported transcripts without a grade`);
      expect(report).toMatch(/ 0 passed, 0 failed, /);
      // No rate counts them, and the monitors read every one whose log records no error of its own.
      expect(loadReportData(temp.store, result.runId).cells.every((c) => c.n === 0)).toBe(true);
      const clean = stored.filter((s) => s.error === UNGRADED);
      expect(monitorScope(temp.store, result.runId, true).map((s) => s.id)).toEqual(clean.map((s) => s.id));
      for (const s of stored) {
        expect(s.key).toMatchObject({ model: log.header.eval.model, dataset: `inspect:${log.header.eval.task}`, split: 'original' });
        expect([s.outcome, s.error?.startsWith(UNGRADED)]).toEqual(['error', true]);
        expect(s.transcript.length, f).toBeGreaterThan(0);
        const scores = temp.store.sampleScores(s.id);
        // That same trimmed log kept its one sample without the scores its header counts.
        const scorers = f === 'log_tool_call_error.json' ? [] : results.scores.map((x) => x.name);
        for (const scorer of scorers) expect(Object.keys(scores), `${f} ${scorer}`).toContain(scorer);
        const read = log.samples.find((x) => String(x.id) === s.key.taskId && x.epoch === s.key.epoch + 1)!;
        expect(scores).toEqual(JSON.parse(JSON.stringify(read.scores ?? {})));
      }
    }
  });
});
