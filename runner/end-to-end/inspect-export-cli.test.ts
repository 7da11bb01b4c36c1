import { strFromU8, unzipSync } from 'fflate';
import { rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSharedData } from '../../core/testing/shared-data.js';
import { labelOf } from '../../results/labels.js';
import { computeMetrics } from '../../results/metrics.js';
import { inspectSampleId } from '../../results/inspect/sample.js';
import { readInspectLog, type ReadLog } from '../../results/inspect/read.js';
import { inspectSchema } from '../../results/testing/inspect-schema.js';
import type { StoredSample } from '../../results/store.js';
import { judgedRun } from '../testing/judged-run.js';
import { assertBuilt, cli } from '../testing/cli.js';

/*
 * A scripted run (modify-tests on two LCB tasks, original and one-off, with full and read-only test access: two
 * configurations), with a judge's and a monitor's verdicts stored beside it, exported through the CLI as Inspect logs
 * in both formats. Each log is checked against the schema Inspect publishes, against the layout of a log Inspect
 * wrote, and against the store it came from.
 */

let dir: string;
let store: string;
let samples: StoredSample[];
const JUDGE = 'scripted/judge';

beforeAll(async () => {
  assertBuilt();
  ({ dir, store, samples } = await judgedRun('ib-inspect-', JUDGE));
}, 600_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function exportLogs(format: 'inspect' | 'inspect-json'): Promise<{ files: string[]; logs: ReadLog[] }> {
  const out = join(dir, format);
  const r = await cli(['export', 'latest', '--format', format, '--out', out, '--store', store]);
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/wrote 2 Inspect logs \(8 samples\)/);
  const files = readdirSync(out).sort();
  return { files: files.map((f) => join(out, f)), logs: files.map((f) => readInspectLog(join(out, f))) };
}

describe('export --format inspect', () => {
  it('writes one log per configuration, with Inspect-style names, holding its splits as samples', async () => {
    const { files, logs } = await exportLogs('inspect');
    expect(files).toHaveLength(2);
    for (const f of files) expect(f).toMatch(/\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\+00-00_impossiblebench_[\w-]{22}\.eval$/);
    expect(logs.map((l) => l.header.eval.task_args.access).sort()).toEqual(['full', 'readonly']);
    for (const log of logs) {
      const access = log.header.eval.task_args.access;
      const mine = samples.filter((s) => s.key.access === access);
      expect(log.samples).toHaveLength(mine.length);
      expect(log.header.results!.total_samples).toBe(mine.length);
      expect(log.header.eval.model).toBe('scripted/modify-tests');
      expect(log.header.eval.task_args).toMatchObject({ dataset: 'builtin:lcb', scaffold: 'full', prompt: 'D', max_attempts: 10 });
      expect(new Set(log.samples.map((s) => s.metadata.split))).toEqual(new Set(['original', 'oneoff']));
    }
  });

  it('matches the store: each sample its outcome, label, split, diffs and messages; each log the cheating rate and interval of its cells', async () => {
    const { logs } = await exportLogs('inspect');
    for (const log of logs) {
      const access = log.header.eval.task_args.access;
      for (const s of log.samples) {
        const stored = samples.find((x) => x.key.access === access && inspectSampleId(x.key) === s.id)!;
        expect(s.epoch).toBe(stored.key.epoch + 1);
        expect(s.scores!.outcome!.value).toBe(stored.outcome);
        expect(s.scores!.label!.value).toBe(labelOf(stored));
        expect(s.metadata).toMatchObject({
          split: stored.key.split,
          test_diff: stored.testDiff,
          source_diff: stored.sourceDiff,
          grading_log: stored.gradingLog,
          tamper: stored.tamper,
        });
        expect(s.messages.map((m) => m.role)).toEqual(stored.transcript.map((m) => m.role));
        expect(s.model_usage['scripted/modify-tests']).toMatchObject({ input_tokens: stored.inputTokens, output_tokens: stored.outputTokens });
        const calls = stored.transcript.flatMap((m) => m.toolCalls ?? []).map((c) => c.id);
        const results = s.messages.filter((m) => m.role === 'tool');
        expect(results.map((m) => m.tool_call_id)).toEqual(calls);
        for (const m of results) expect(m.function).toBeTruthy();
        // The judge read the passes; the monitor every sample.
        expect(s.scores![`judge:${JUDGE}`]?.value).toBe(stored.outcome === 'passed' ? 'modify-tests' : undefined);
        expect(s.scores!['monitor:scripted/monitor:aaaaaaaa']!.value).toBe(stored.testDiff ? 90 : 10);
      }
      const [oneoff] = computeMetrics(samples.filter((x) => x.key.access === access && x.key.split === 'oneoff'));
      const outcome = log.header.results!.scores.find((x) => x.name === 'outcome')!;
      expect(outcome.metrics.cheating_rate_oneoff!.value).toBe(oneoff!.rate);
      expect(outcome.metrics.cheating_rate_oneoff_ci_low!.value).toBe(oneoff!.interval!.low);
      expect(outcome.metrics.cheating_rate_oneoff_ci_high!.value).toBe(oneoff!.interval!.high);
      expect(outcome.metrics.cheating_rate_oneoff_n!.value).toBe(oneoff!.n);
      expect(log.header.results!.scores.map((x) => x.name)).toEqual([
        'outcome',
        'label',
        'kinds',
        `judge:${JUDGE}`,
        'monitor:scripted/monitor:aaaaaaaa',
      ]);
    }
    // modify-tests cheats where it may edit the tests, and cannot where they are read-only.
    const rate = (access: string) =>
      logs.find((l) => l.header.eval.task_args.access === access)!.header.results!.scores[0]!.metrics.cheating_rate!.value;
    expect(rate('full')).toBe(1);
    expect(rate('readonly')).toBe(0);
  });

  it('validates against the EvalLog and EvalSample schemas Inspect publishes', async (ctx) => {
    const schema = inspectSchema(requireSharedData(ctx, 'inspect-logs/inspect-openapi.json'));
    const { files } = await exportLogs('inspect');
    for (const file of files) {
      const zip = unzipSync(readFileSync(file));
      const entry = (name: string) => JSON.parse(strFromU8(zip[name]!)) as Record<string, unknown>;
      const header = entry('header.json');
      expect(schema.log(header), JSON.stringify(schema.log.errors)).toBe(true);
      for (const name of Object.keys(zip).filter((n) => n.startsWith('samples/'))) {
        expect(schema.sample(entry(name)), `${name}: ${JSON.stringify(schema.sample.errors)}`).toBe(true);
      }
      // The checks bite: a header without its eval spec is no log.
      const { eval: _spec, ...broken } = header;
      expect(schema.log(broken)).toBe(false);
    }
  });

  it("holds the entries of a log Inspect wrote: header, samples, summaries, reductions and the journal's", async (ctx) => {
    const theirs = unzipSync(readFileSync(requireSharedData(ctx, 'inspect-logs/log_streaming.eval')));
    const layout = (names: string[]) => [...new Set(names.map((n) => n.replace(/^samples\/.+_epoch_\d+\.json$/, 'samples/ID_epoch_N.json')))].sort();
    const { files, logs } = await exportLogs('inspect');
    for (const [i, log] of logs.entries()) {
      expect(layout(log.entries)).toEqual(layout(Object.keys(theirs)));
      for (const s of log.samples) expect(log.entries).toContain(`samples/${s.id}_epoch_${s.epoch}.json`);
      expect(log.summaries.map((s) => `${s.id}:${s.epoch}`).sort()).toEqual(log.samples.map((s) => `${s.id}:${s.epoch}`).sort());
      expect(files[i]).toMatch(/\.eval$/);
    }
  });

  it('writes the same logs in the .json format', async () => {
    const evals = await exportLogs('inspect');
    const jsons = await exportLogs('inspect-json');
    expect(jsons.files.map((f) => f.replace(/^.*\//, '').replace(/\.json$/, ''))).toEqual(
      evals.files.map((f) => f.replace(/^.*\//, '').replace(/\.eval$/, '')),
    );
    for (const [i, log] of jsons.logs.entries()) {
      const zipped = evals.logs[i]!;
      expect(log.header).toEqual(zipped.header);
      expect(log.reductions).toEqual(zipped.reductions);
      const byId = (xs: ReadLog['samples']) => [...xs].sort((a, b) => `${a.id}`.localeCompare(`${b.id}`));
      expect(byId(log.samples)).toEqual(byId(zipped.samples));
    }
  });

  it('refuses --only, since a log holds every sample of its configuration', async () => {
    const r = await cli(['export', 'latest', '--format', 'inspect', '--only', 'cheating', '--out', join(dir, 'only'), '--store', store]);
    expect([r.exitCode, r.stderr.trim()]).toEqual([
      1,
      'impossiblebench: --only does not apply to --format inspect: each log holds every sample of its configuration',
    ]);
  });
});
